import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { oncePerRole } from '../common/once-per-role';
import type { AppRole } from '../config/config.schema';
import { ProjectsModule } from '../projects/projects.module';
import { ArchivedProjectSweep } from './archived-project-sweep';
import { CheckoutExpiryProcessor } from './checkout-expiry.processor';
import { CheckoutExpiryScheduler } from './checkout-expiry.scheduler';
import { CheckoutsService } from './checkouts.service';
import { SubmitService } from './submit.service';
import { WorkController } from './work.controller';
import { WorkHistoryService } from './work-history.service';
import { WorkSummaryService } from './work-summary.service';

/** Crowd workers' side: leases, submissions, the expiry job (only in processes that run jobs). */
@Module({})
export class WorkModule {
  /** One per role (oncePerRole): the app, AuthModule (an account's deletion releases its worker's leases) and WorkerBlocksModule import it. */
  static register = oncePerRole((role) => WorkModule.build(role));

  private static build(role: AppRole): DynamicModule {
    const jobs: Provider[] = role === 'http' ? [] : [CheckoutExpiryProcessor, ArchivedProjectSweep];
    return {
      module: WorkModule,
      imports: [ProjectsModule],
      controllers: [WorkController],
      providers: [CheckoutsService, SubmitService, WorkSummaryService, WorkHistoryService, CheckoutExpiryScheduler, ...jobs],
      exports: [CheckoutsService],
    };
  }
}
