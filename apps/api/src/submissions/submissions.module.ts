import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { TestModeModule } from '../test-mode/test-mode.module';
import { AnnotationsService } from './annotations.service';
import { AnnotationsV1Controller } from './annotations.v1.controller';

@Module({
  imports: [ProjectsModule, TestModeModule],
  controllers: [AnnotationsV1Controller],
  providers: [AnnotationsService],
  exports: [AnnotationsService],
})
export class SubmissionsModule {}
