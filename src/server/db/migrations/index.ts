import type { Migration } from 'kysely/migration';
import * as initial from './0001-initial.ts';
import * as metadataStripped from './0002-metadata-stripped.ts';
import * as liveQa from './0003-live-qa.ts';
import * as memoryStatus from './0004-memory-status.ts';
import * as originalKey from './0005-original-key.ts';
import * as videoRenditions from './0006-video-renditions.ts';
import * as resumableUploads from './0007-resumable-uploads.ts';
import * as memoryOwner from './0008-memory-owner.ts';
import * as idempotencyPerClient from './0009-idempotency-per-client.ts';
import * as joinProof from './0010-join-proof.ts';
import * as programme from './0011-programme.ts';
import * as attendeeErasure from './0012-attendee-erasure.ts';
import * as memoryReports from './0013-memory-reports.ts';
import * as polls from './0016-polls.ts';
import * as panelQuestions from './0017-panel-questions.ts';
import * as erasureOfPollsAndReports from './0018-erasure-of-polls-and-reports.ts';
import * as anonymousQuestionsAndAnswers from './0021-anonymous-questions-and-answers.ts';
import * as announcements from './0024-announcements.ts';
import * as pushLanguage from './0025-push-language.ts';

/**
 * Every migration, in order. Listed in code (not read from a folder) so the compiled
 * server and the tests run exactly the same set. Add new ones with the next number.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-metadata-stripped': metadataStripped,
  '0003-live-qa': liveQa,
  '0004-memory-status': memoryStatus,
  '0005-original-key': originalKey,
  '0006-video-renditions': videoRenditions,
  '0007-resumable-uploads': resumableUploads,
  '0008-memory-owner': memoryOwner,
  '0009-idempotency-per-client': idempotencyPerClient,
  '0010-join-proof': joinProof,
  '0011-programme': programme,
  '0012-attendee-erasure': attendeeErasure,
  '0013-memory-reports': memoryReports,
  '0016-polls': polls,
  '0017-panel-questions': panelQuestions,
  '0018-erasure-of-polls-and-reports': erasureOfPollsAndReports,
  '0021-anonymous-questions-and-answers': anonymousQuestionsAndAnswers,
  '0024-announcements': announcements,
  '0025-push-language': pushLanguage,
};
