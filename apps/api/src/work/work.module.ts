import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { AppRole } from '../config/config.schema';
import { ProjectsModule } from '../projects/projects.module';
import { CheckoutExpiryProcessor } from './checkout-expiry.processor';
import { CheckoutExpiryScheduler } from './checkout-expiry.scheduler';
import { CheckoutsService } from './checkouts.service';
import { SubmitService } from './submit.service';
import { WorkController } from './work.controller';
import { WorkHistoryService } from './work-history.service';
import { WorkSummaryService } from './work-summary.service';

/**
 * One per role: Nest tells dynamic modules apart by reference, and the app and AuthModule (an account's
 * deletion releases its worker's leases) both import this one, which must be registered once.
 */
const registered = new Map<AppRole, DynamicModule>();

/** Crowd workers' side: leases, submissions, the expiry job (only in processes that run jobs). */
@Module({})
export class WorkModule {
  static register(role: AppRole): DynamicModule {
    let module = registered.get(role);
    if (!module) registered.set(role, (module = WorkModule.build(role)));
    return module;
  }

  private static build(role: AppRole): DynamicModule {
    const jobs: Provider[] = role === 'http' ? [] : [CheckoutExpiryProcessor];
    return {
      module: WorkModule,
      imports: [ProjectsModule],
      controllers: [WorkController],
      providers: [CheckoutsService, SubmitService, WorkSummaryService, WorkHistoryService, CheckoutExpiryScheduler, ...jobs],
      exports: [CheckoutsService],
    };
  }
}
