import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { ConsoleTasksController } from './console-tasks.controller';
import { ConsoleTasksService } from './console-tasks.service';

/** Read models for the requester console that the requester API does not have (progress, task pages). */
@Module({
  // AnnotationsService comes from SubmissionsModule, which is global (registered by role in AppModule).
  imports: [ProjectsModule],
  controllers: [ConsoleTasksController],
  providers: [ConsoleTasksService],
})
export class ConsoleModule {}
