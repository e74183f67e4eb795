import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppRole } from '../config/config.schema';
import { ProjectsModule } from '../projects/projects.module';
import { WorkModule } from '../work/work.module';
import { AccountDeletionService } from './account-deletion.service';
import { ApiKeyGuard } from './api-key.guard';
import { SecretLookupThrottle } from './secret-lookup-throttle';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { PingController } from './ping.controller';
import { LoginThrottle } from './login-throttle';
import { RateLimitService } from './rate-limit.service';
import { SessionController } from './session.controller';
import { SessionGuard } from './session.guard';
import { SessionPruning } from './session-pruning';
import { SessionRateLimit } from './session-rate-limit';
import { SessionsService } from './sessions.service';
import { SignupThrottle } from './signup-throttle';

/**
 * Accounts, sessions and API keys, and the deletion of an account; its guards are used by every other
 * feature. Expired sessions are pruned by processes that run jobs.
 */
@Global()
@Module({})
export class AuthModule {
  static register(role: AppRole): DynamicModule {
    return {
      module: AuthModule,
      // The account's deletion archives its projects and releases its worker's leases through their services.
      imports: [ProjectsModule, WorkModule.register(role)],
      controllers: [SessionController, ApiKeysController, PingController],
      providers: [SessionsService, AccountDeletionService, SessionGuard, SessionRateLimit, ApiKeysService, ApiKeyGuard, SecretLookupThrottle, RateLimitService, LoginThrottle, SignupThrottle, ...(role === 'http' ? [] : [SessionPruning])],
      exports: [SessionsService, SessionGuard, SessionRateLimit, ApiKeysService, ApiKeyGuard, RateLimitService],
    };
  }
}
