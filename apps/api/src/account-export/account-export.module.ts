import { Module, type DynamicModule } from '@nestjs/common';
import type { AppRole } from '../config/config.schema';
import { ProjectsModule } from '../projects/projects.module';
import { WorkerBlocksModule } from '../worker-blocks/worker-blocks.module';
import { AccountExportController } from './account-export.controller';
import { AccountExportService } from './account-export.service';

/** A user's data as one file; it reads through the services of the console pages that show the same things. */
@Module({})
export class AccountExportModule {
  static register(role: AppRole): DynamicModule {
    return {
      module: AccountExportModule,
      // AuthModule and WebhooksModule are global; WorkerBlocksModule is not.
      imports: [ProjectsModule, WorkerBlocksModule.register(role)],
      controllers: [AccountExportController],
      providers: [AccountExportService],
    };
  }
}
