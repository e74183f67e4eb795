import { Module, type DynamicModule } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import type { AppConfig } from './config/config.schema';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { ProjectsModule } from './projects/projects.module';
import { CacheInvalidationModule } from './redis/cache-invalidation.module';
import { RedisModule } from './redis/redis.module';
import { SubmissionsModule } from './submissions/submissions.module';
import { TasksModule } from './tasks/tasks.module';
import { QueuesModule } from './queues/queues.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WorkModule } from './work/work.module';
import { WorkerBlocksModule } from './worker-blocks/worker-blocks.module';
import { ProjectWorkersModule } from './project-workers/project-workers.module';
import { AccountExportModule } from './account-export/account-export.module';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(config),
        DatabaseModule,
        RedisModule,
        CacheInvalidationModule,
        QueuesModule,
        WebhooksModule.register(config.role),
        HealthModule,
        MetricsModule,
        AuthModule.register(config.role),
        ProjectsModule,
        TasksModule.register(config.role),
        SubmissionsModule.register(config.role),
        WorkModule.register(config.role),
        ConsoleModule,
        WorkerBlocksModule.register(config.role),
        ProjectWorkersModule,
        AccountExportModule.register(config.role),
      ],
    };
  }
}
