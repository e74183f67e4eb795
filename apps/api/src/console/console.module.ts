import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { ConsoleTasksController } from './console-tasks.controller';
import { ConsoleTasksService } from './console-tasks.service';

/** Read models for the requester console that the requester API does not have (progress, task pages). */
@Module({
  imports: [ProjectsModule, SubmissionsModule],
  controllers: [ConsoleTasksController],
  providers: [ConsoleTasksService],
})
export class ConsoleModule {}
