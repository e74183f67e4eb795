import { Controller, Get, Module, Res, type DynamicModule } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serves the built web app (apps/web → dist/web) in production: assets under /assets, and index.html
 * for the app's own routes so a reload on /work/... or /console/... works.
 */
@Module({})
export class WebModule {
  static register(distDir: string | undefined): DynamicModule {
    const index = distDir ? join(distDir, 'index.html') : undefined;
    if (!index || !existsSync(index)) return { module: WebModule };
    const html = readFileSync(index, 'utf8');

    @ApiExcludeController()
    @Controller()
    class WebController {
      @Get(['/', 'work', 'work/*', 'console', 'console/*'])
      index(@Res() reply: FastifyReply) {
        void reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
      }
    }
    return { module: WebModule, controllers: [WebController] };
  }
}
