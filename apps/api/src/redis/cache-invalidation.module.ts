import { Global, Module } from '@nestjs/common';
import { CacheInvalidation } from './cache-invalidation';

/** Every process's, whatever its role: each builds the caches it invalidates (cache-invalidation.ts). */
@Global()
@Module({
  providers: [CacheInvalidation],
  exports: [CacheInvalidation],
})
export class CacheInvalidationModule {}
