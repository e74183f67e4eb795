import { Module, type DynamicModule } from '@nestjs/common';
import type { AppRole } from '../config/config.schema';
import { ProjectsModule } from '../projects/projects.module';
import { TestModeModule } from '../test-mode/test-mode.module';
import { IdempotencyPruning } from './idempotency-pruning';
import { TasksService } from './tasks.service';
import { TasksV1Controller } from './tasks.v1.controller';

/** The requester API's tasks; stale Idempotency-Key records are pruned by processes that run jobs. */
@Module({})
export class TasksModule {
  static register(role: AppRole): DynamicModule {
    return {
      module: TasksModule,
      imports: [ProjectsModule, TestModeModule],
      controllers: [TasksV1Controller],
      providers: [TasksService, ...(role === 'http' ? [] : [IdempotencyPruning])],
      exports: [TasksService],
    };
  }
}
