import { Module } from '@nestjs/common';
import { oncePerRole } from '../common/once-per-role';
import { ProjectsModule } from '../projects/projects.module';
import { WorkModule } from '../work/work.module';
import { WorkerBlocksController } from './worker-blocks.controller';
import { WorkerBlocksService } from './worker-blocks.service';

/** Requesters blocking workers: the console routes; the lease and the work list read the blocks themselves. */
@Module({})
export class WorkerBlocksModule {
  static register = oncePerRole((role) => ({
    module: WorkerBlocksModule,
    // WorkModule for its CheckoutsService: a block ends the worker's leases on the account's tasks.
    imports: [ProjectsModule, WorkModule.register(role)],
    controllers: [WorkerBlocksController],
    providers: [WorkerBlocksService],
    exports: [WorkerBlocksService],
  }));
}
