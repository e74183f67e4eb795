import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { ProjectWorkersController } from './project-workers.controller';
import { ProjectWorkersService } from './project-workers.service';

/** How a project's workers agree with one another (the console's Workers page). */
@Module({
  imports: [ProjectsModule],
  controllers: [ProjectWorkersController],
  providers: [ProjectWorkersService],
})
export class ProjectWorkersModule {}
