import { Module } from '@nestjs/common';
import { TestModeModule } from '../test-mode/test-mode.module';
import { ProjectsConsoleController } from './projects.console.controller';
import { ProjectsService } from './projects.service';
import { ProjectsV1Controller } from './projects.v1.controller';

@Module({
  imports: [TestModeModule],
  controllers: [ProjectsConsoleController, ProjectsV1Controller],
  providers: [ProjectsService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
