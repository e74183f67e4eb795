import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SessionGuard } from '../auth/session.guard';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiErrors, ApiSessionAuth, TAGS } from '../common/http/api-docs';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { sendStream } from '../common/http/send-stream';
import { AccountExportService } from './account-export.service';

/** The account page's "Download your data" (docs/decisions.md, "Downloading your data"). */
@ApiTags(TAGS.sessions)
@ApiSessionAuth()
@UseGuards(SessionGuard)
@Controller('api/session')
export class AccountExportController {
  constructor(private readonly exports: AccountExportService) {}

  @Get('export')
  @ApiOperation({
    summary: 'Download your data',
    description:
      'What Crowdbox keeps about the signed-in user and their account, as one JSON file (a download): the user, the account, sessions, API keys, projects, webhook addresses, blocked workers, and every submission made as a worker with its boxes. No secrets. Streamed; counts once against the session rate limit; one at a time per user.',
  })
  @ApiOkResponse({ description: 'The file (`Content-Disposition: attachment`).', content: { 'application/json': { schema: ref('AccountExport') } } })
  @ApiErrors([401, 403, 429], {
    403: 'A request from another site (the browser says so): a link elsewhere cannot start the file.',
    429: 'The session rate limit, or a data file of this user is being made already, or too many are: the `Retry-After` header says when to retry.',
  })
  async export(@CurrentSession() session: SessionPrincipal, @Res() reply: FastifyReply): Promise<void> {
    const release = this.exports.begin(session.userId);
    // Given back when the file ends, or when the client goes before it began (the stream never read).
    reply.raw.once('close', release);
    let chunks: AsyncIterable<string>;
    try {
      chunks = await this.exports.export(session, release);
    } catch (error) {
      release();
      throw error;
    }
    const filename = `crowdbox-account-${new Date().toISOString().slice(0, 10)}.json`;
    await sendStream(reply, chunks, { type: 'application/json; charset=utf-8', filename, what: 'account export' });
  }
}
