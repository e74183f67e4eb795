import type { ChangedPasswordResponse, DataBody, DeletedAccountResponse, SessionResponse, SignedOutSessionsResponse, UserResponse } from '@crowdbox/contracts';
import { Body, Controller, Get, HttpCode, Inject, Ip, Post, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { UntrustedForwardingWarning } from '../common/http/untrusted-forwarding.interceptor';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { AccountDeletionService } from './account-deletion.service';
import { ChangePasswordDto, DeleteAccountDto, LoginDto, SignupDto } from './dto/session.dto';
import { clearSessionCookie, setSessionCookie } from './session-cookie';
import { SessionGuard } from './session.guard';
import { SessionsService, toUserResponse, type StartedSession } from './sessions.service';

@ApiTags('session')
@Controller('api/session')
export class SessionController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly deletion: AccountDeletionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('signup')
  @UseInterceptors(UntrustedForwardingWarning)
  async signUp(@Body() body: SignupDto, @Ip() ip: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<DataBody<SessionResponse>> {
    return this.reply(reply, await this.sessions.signUp(body, ip));
  }

  @Post('login')
  @HttpCode(200)
  @UseInterceptors(UntrustedForwardingWarning)
  async logIn(@Body() body: LoginDto, @Ip() ip: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<DataBody<SessionResponse>> {
    return this.reply(reply, await this.sessions.logIn(body, ip));
  }

  @Post('logout')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async logOut(@CurrentSession() session: SessionPrincipal, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.logOut(session.sessionId);
    clearSessionCookie(reply);
    return { data: { ok: true } };
  }

  /** Changes the password and ends every other session; this one stays signed in. */
  @Post('password')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async changePassword(
    @CurrentSession() session: SessionPrincipal,
    @Body() body: ChangePasswordDto,
    @Ip() ip: string,
  ): Promise<DataBody<ChangedPasswordResponse>> {
    return { data: { ok: true, signed_out_sessions: await this.sessions.changePassword(session, body, ip) } };
  }

  /** Ends every other session of the user: a device lost or left signed in. */
  @Post('logout_others')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async logOutOthers(@CurrentSession() session: SessionPrincipal): Promise<DataBody<SignedOutSessionsResponse>> {
    return { data: { signed_out_sessions: await this.sessions.logOutOthers(session) } };
  }

  /**
   * Deletes the user's account once the password is checked (docs/decisions.md, "Deleting an account"):
   * every session ends, this one too, so the cookie is cleared as log-out clears it.
   */
  @Post('delete_account')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async deleteAccount(
    @CurrentSession() session: SessionPrincipal,
    @Body() body: DeleteAccountDto,
    @Ip() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DataBody<DeletedAccountResponse>> {
    await this.deletion.deleteAccount(session, body, ip);
    clearSessionCookie(reply);
    return { data: { deleted: true } };
  }

  @Get('me')
  @UseGuards(SessionGuard)
  async me(@CurrentSession() session: SessionPrincipal): Promise<DataBody<{ user: UserResponse }>> {
    return { data: { user: toUserResponse(await this.sessions.user(session.userId)) } };
  }

  private reply(reply: FastifyReply, started: StartedSession): DataBody<SessionResponse> {
    // HTTPS-only in production, and wherever the request came over HTTPS (directly, or through a proxy
    // TRUST_PROXY believes), whatever NODE_ENV says; COOKIE_SECURE overrides both.
    const secure = this.config.COOKIE_SECURE ?? (this.config.NODE_ENV === 'production' || reply.request.protocol === 'https');
    setSessionCookie(reply, started.token, started.expiresAt, secure);
    return { data: { user: toUserResponse(started.user), token: started.token } };
  }
}
