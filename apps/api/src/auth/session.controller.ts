import type {
  ChangedPasswordResponse,
  DataBody,
  DeletedAccountResponse,
  EndedSessionResponse,
  SessionInfo,
  SessionResponse,
  SignedOutSessionsResponse,
  UserResponse,
} from '@crowdbox/contracts';
import { Body, Controller, Delete, Get, HttpCode, Inject, Ip, Post, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiSessionAuth, ApiUuidParam, BODY_ERRORS, TAGS } from '../common/http/api-docs';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { UntrustedForwardingWarning } from '../common/http/untrusted-forwarding.interceptor';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { AccountDeletionService } from './account-deletion.service';
import { ChangePasswordDto, DeleteAccountDto, LoginDto, SignupDto } from './dto/session.dto';
import { clearSessionCookie, setSessionCookie } from './session-cookie';
import { Device } from './session-device.decorator';
import { SessionGuard } from './session.guard';
import { SessionsService, toUserResponse, type SessionDevice, type StartedSession } from './sessions.service';

/** The 429 of every route behind SessionGuard: made-up tokens are limited per address (SecretLookupThrottle). */
const UNKNOWN_TOKENS = 'Too many unknown session tokens from this address: the `Retry-After` header says when to retry.';

/**
 * The errors of a route that first checks the signed-in user's password (SessionsService.checkPassword):
 * a wrong one is the 422 on `field` and counts as a failed log-in, so the log-in limits answer 429; a
 * password changed between the check and the write is the 409 `conflict` says.
 */
const ApiPasswordCheckErrors = (field: string, conflict: string): MethodDecorator =>
  ApiErrors([...BODY_ERRORS, 401, 403, 409, 415, 422, 429], {
    409: conflict,
    422: `A field is invalid, or \`${field}\` is wrong (which counts as a failed log-in).`,
    429: 'Too many wrong passwords (the log-in limits), or unknown session tokens from this address: the `Retry-After` header says when to retry.',
  });

@ApiTags(TAGS.sessions)
@Controller('api/session')
export class SessionController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly deletion: AccountDeletionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('signup')
  @ApiOperation({ summary: 'Sign up', description: 'Creates a user and its account, and signs it in: the token in the answer and the session cookie (`__Host-cb_session`; `cb_session` over plain HTTP).' })
  @ApiData(201, ref('Session'))
  @ApiErrors([...BODY_ERRORS, 403, 415, 422, 429], {
    422: 'A field is invalid, or `email` is already registered.',
    429: 'Too many sign-ups from this address: the `Retry-After` header says when to retry.',
  })
  @UseInterceptors(UntrustedForwardingWarning)
  async signUp(@Body() body: SignupDto, @Device() device: SessionDevice, @Res({ passthrough: true }) reply: FastifyReply): Promise<DataBody<SessionResponse>> {
    return this.reply(reply, await this.sessions.signUp(body, device));
  }

  @Post('login')
  @ApiOperation({ summary: 'Log in', description: 'Signs in: the token in the answer and the session cookie (`__Host-cb_session`; `cb_session` over plain HTTP).' })
  @ApiData(200, ref('Session'))
  @ApiErrors([...BODY_ERRORS, 401, 403, 415, 422, 429], {
    401: 'Field `root`, `email or password is wrong` (the same answer for an unknown email).',
    429: 'Too many failed log-ins for this email or address: the `Retry-After` header says when to retry.',
  })
  @HttpCode(200)
  @UseInterceptors(UntrustedForwardingWarning)
  async logIn(@Body() body: LoginDto, @Device() device: SessionDevice, @Res({ passthrough: true }) reply: FastifyReply): Promise<DataBody<SessionResponse>> {
    return this.reply(reply, await this.sessions.logIn(body, device));
  }

  @Post('logout')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: 'Log out', description: 'Ends this session and clears the cookie.' })
  @ApiSessionAuth()
  @ApiData(200, ref('Ok'))
  @ApiErrors([401, 403, 429], { 429: UNKNOWN_TOKENS })
  async logOut(@CurrentSession() session: SessionPrincipal, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.logOut(session.sessionId);
    // Only once the session is ended, not in a finally: a failed delete leaves it live, and clearing the
    // cookie then would hide a working session from the user, who could no longer retry the log-out.
    clearSessionCookie(reply, this.config);
    return { data: { ok: true } };
  }

  /** Changes the password and ends every other session; this device stays signed in, with a new token. */
  @Post('password')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @ApiOperation({
    summary: 'Change the password',
    description:
      'Checks `current_password`, sets `new_password` and ends every session of the user; this device stays signed in with a new session: its token in the answer and the cookie. The token that asked no longer works.',
  })
  @ApiSessionAuth()
  @ApiData(200, ref('ChangedPassword'))
  @ApiPasswordCheckErrors('current_password', 'The password was changed meanwhile (another session): enter the new one as the current password.')
  async changePassword(
    @CurrentSession() session: SessionPrincipal,
    @Body() body: ChangePasswordDto,
    @Device() device: SessionDevice,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DataBody<ChangedPasswordResponse>> {
    const { signedOut, started } = await this.sessions.changePassword(session, body, device);
    setSessionCookie(reply, started.token, started.expiresAt, this.config);
    return { data: { ok: true, signed_out_sessions: signedOut, token: started.token } };
  }

  /** Ends every other session of the user: a device lost or left signed in. */
  @Post('logout_others')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: 'Log out every other session', description: 'Ends every session of the user but this one: a device lost or left signed in.' })
  @ApiSessionAuth()
  @ApiData(200, ref('SignedOutSessions'))
  @ApiErrors([401, 403, 429], { 429: UNKNOWN_TOKENS })
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
  @ApiOperation({
    summary: 'Delete the account',
    description:
      'Once `password` is checked: projects archived and their outstanding tasks cancelled, keys revoked, every session ended (this one too, and the cookie cleared); results are kept.',
  })
  @ApiSessionAuth()
  @ApiData(200, ref('DeletedAccount'))
  @ApiPasswordCheckErrors('password', 'The password was changed meanwhile: enter the new one.')
  async deleteAccount(
    @CurrentSession() session: SessionPrincipal,
    @Body() body: DeleteAccountDto,
    @Ip() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DataBody<DeletedAccountResponse>> {
    await this.deletion.deleteAccount(session, body, ip);
    clearSessionCookie(reply, this.config);
    return { data: { deleted: true } };
  }

  @Get('sessions')
  @UseGuards(SessionGuard)
  @ApiOperation({
    summary: 'Signed-in devices',
    description: "The user's live sessions, the most recently used first: the browser and address each signed in from, when it was last used (to the minute), and which one is asking.",
  })
  @ApiSessionAuth()
  @ApiData(200, { type: 'array', items: ref('SessionInfo') })
  @ApiErrors([401, 429], { 429: UNKNOWN_TOKENS })
  async listSessions(@CurrentSession() session: SessionPrincipal): Promise<DataBody<SessionInfo[]>> {
    return { data: await this.sessions.list(session) };
  }

  /** Ends one session (a lost or shared device); the caller's own is a log-out, and its cookie is cleared. */
  @Delete('sessions/:id')
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: 'Sign a device out', description: 'Ends one of the user\'s sessions at once, in every process; the caller\'s own is a log-out.' })
  @ApiSessionAuth()
  @ApiUuidParam('id', 'the session, from GET /api/session/sessions')
  @ApiData(200, ref('EndedSession'))
  @ApiErrors([401, 403, 404, 429], { 404: 'Field `root`, `session not found`: no such live session of this user.', 429: UNKNOWN_TOKENS })
  async endSession(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DataBody<EndedSessionResponse>> {
    const ended = await this.sessions.end(session, id);
    if (ended.current) clearSessionCookie(reply, this.config);
    return { data: ended };
  }

  @Get('me')
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: 'Who is signed in', description: 'The session\'s user.' })
  @ApiSessionAuth()
  @ApiData(200, ref('Me'))
  @ApiErrors([401, 429], { 429: UNKNOWN_TOKENS })
  async me(@CurrentSession() session: SessionPrincipal): Promise<DataBody<{ user: UserResponse }>> {
    return { data: { user: toUserResponse(await this.sessions.user(session.userId)) } };
  }

  private reply(reply: FastifyReply, started: StartedSession): DataBody<SessionResponse> {
    setSessionCookie(reply, started.token, started.expiresAt, this.config);
    return { data: { user: toUserResponse(started.user), token: started.token } };
  }
}
