import { Global, Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { PingController } from './ping.controller';
import { LoginThrottle } from './login-throttle';
import { RateLimitService } from './rate-limit.service';
import { SessionController } from './session.controller';
import { SessionGuard } from './session.guard';
import { SessionsService } from './sessions.service';

/** Accounts, sessions and API keys; its guards are used by every other feature. */
@Global()
@Module({
  controllers: [SessionController, ApiKeysController, PingController],
  providers: [SessionsService, SessionGuard, ApiKeysService, ApiKeyGuard, RateLimitService, LoginThrottle],
  exports: [SessionsService, SessionGuard, ApiKeysService, ApiKeyGuard, RateLimitService],
})
export class AuthModule {}
