import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppRole } from '../config/config.schema';
import { ProjectsModule } from '../projects/projects.module';
import { TestModeModule } from '../test-mode/test-mode.module';
import { AnnotationsService } from './annotations.service';
import { AnnotationsV1Controller } from './annotations.v1.controller';
import { ConsensusRefresh } from './consensus-refresh';

/**
 * Results for requesters (also read by the console); the background consensus refresh only in processes
 * that run jobs.
 */
@Global()
@Module({})
export class SubmissionsModule {
  static register(role: AppRole): DynamicModule {
    return {
      module: SubmissionsModule,
      imports: [ProjectsModule, TestModeModule],
      controllers: [AnnotationsV1Controller],
      providers: [AnnotationsService, ...(role === 'http' ? [] : [ConsensusRefresh])],
      exports: [AnnotationsService],
    };
  }
}
