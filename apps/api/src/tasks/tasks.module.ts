import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { TestModeModule } from '../test-mode/test-mode.module';
import { TasksService } from './tasks.service';
import { TasksV1Controller } from './tasks.v1.controller';

@Module({
  imports: [ProjectsModule, TestModeModule],
  controllers: [TasksV1Controller],
  providers: [TasksService],
  exports: [TasksService],
})
export class TasksModule {}
