import { Logger } from '@nestjs/common';
import { RepeatedWarnings } from '../common/repeated-warnings';

/**
 * BullMQ's error events, as warnings in the JSON log: a queue or worker with no 'error' listener has
 * BullMQ print each error with its stack through console.error, bypassing the log. During a Redis
 * outage every connection emits one per reconnect attempt, hence RepeatedWarnings. The one instance of
 * this process: BullMQ's classes are built by @nestjs/bullmq, outside DI.
 */
export const bullErrorLog = new RepeatedWarnings(new Logger('BullMQ'));
