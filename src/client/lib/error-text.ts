import { ACCEPTED_FORMAT_NAMES, ACCEPTED_IMAGE_FORMAT_NAMES } from '../../shared/constants.ts';
import type { ErrorResponse } from '../../shared/errors.ts';
import type { MessageId, MessageValues } from '../../shared/i18n/messages.ts';
import { translate } from '../i18n/language.ts';
import { validationText } from './validation-text.ts';

/**
 * The refusals a person can meet on an attendee's or a speaker's screen, by the server's stable
 * name of each (`messageId` of the error body), and their message in the catalogs. The server's
 * every other refusal (the console's, a malformed request, a library's) is named in
 * `LEFT_IN_ENGLISH`: a test fails on a server reason in neither list.
 */
export const ERROR_MESSAGES = {
  'badRequest.damaged': 'errors.badRequestDamaged',
  'badRequest.empty': 'errors.badRequestEmpty',
  'badRequest.proof': 'errors.badRequestProof',
  'badRequest.tooManyMemoryFiles': 'errors.badRequestTooManyMemoryFiles',
  'badRequest.unreadableForm': 'errors.badRequestUnreadableForm',
  'blockedWords.name': 'errors.blockedWordsName',
  'blockedWords.text': 'errors.blockedWordsText',
  'conflict.duplicateQuestion': 'errors.conflictDuplicateQuestion',
  'conflict.nameBeingTaken': 'errors.conflictNameBeingTaken',
  'conflict.nameTaken': 'errors.conflictNameTaken',
  'conflict.pollChanged': 'errors.conflictPollChanged',
  'conflict.pollNotOpen': 'errors.conflictPollNotOpen',
  'conflict.postBeingSent': 'errors.conflictPostBeingSent',
  'conflict.proofUsed': 'errors.conflictProofUsed',
  'conflict.reactionsOff': 'errors.conflictReactionsOff',
  'conflict.sessionCancelled': 'errors.conflictSessionCancelled',
  'forbidden.askAsYourself': 'errors.forbiddenAskAsYourself',
  'forbidden.notYourMemory': 'errors.forbiddenNotYourMemory',
  'forbidden.notYourPoll': 'errors.forbiddenNotYourPoll',
  'forbidden.notYourPost': 'errors.forbiddenNotYourPost',
  'forbidden.notYourQuestions': 'errors.forbiddenNotYourQuestions',
  'forbidden.otherSpeakersQuestion': 'errors.forbiddenOtherSpeakersQuestion',
  'forbidden.uploadAsYourself': 'errors.forbiddenUploadAsYourself',
  'invalid.anonymousOff': 'errors.invalidAnonymousOff',
  'invalid.noFiles': 'errors.invalidNoFiles',
  'invalid.pictureRequired': 'errors.invalidPictureRequired',
  'notFound.memory': 'errors.notFoundMemory',
  'notFound.poll': 'errors.notFoundPoll',
  'notFound.question': 'errors.notFoundQuestion',
  'notFound.session': 'errors.notFoundSession',
  'notFound.speaker': 'errors.notFoundSpeaker',
  'proofRequired.proof': 'errors.proofRequiredProof',
  'rateLimited.tooManyQuestions': 'errors.rateLimitedTooManyQuestions',
  'rateLimited.wait': 'errors.rateLimitedWait',
  'tooLarge.memoryFile': 'errors.tooLargeMemoryFile',
  'tooLarge.picture': 'errors.tooLargePicture',
  'tooLarge.uploadsFull': 'errors.tooLargeUploadsFull',
  'tooManyRequests.unfinishedUploads': 'errors.tooManyRequestsUnfinishedUploads',
  'unauthorized.erased': 'errors.unauthorizedErased',
  'unauthorized.expired': 'errors.unauthorizedExpired',
  'unauthorized.invalidToken': 'errors.unauthorizedInvalidToken',
  'unauthorized.joinFirst': 'errors.unauthorizedJoinFirst',
  'unauthorized.moderatorFirst': 'errors.unauthorizedModeratorFirst',
  'unauthorized.signInToUpload': 'errors.unauthorizedSignInToUpload',
  'unauthorized.speakerSecret': 'errors.unauthorizedSpeakerSecret',
  'unauthorized.staleSpeakerLink': 'errors.unauthorizedStaleSpeakerLink',
  'unavailable.busy': 'errors.unavailableBusy',
  'unavailable.connections': 'errors.unavailableConnections',
  'unavailable.database': 'errors.unavailableDatabase',
  'unavailable.databaseUnreachable': 'errors.unavailableDatabaseUnreachable',
  'unavailable.erasureUnfinished': 'errors.unavailableErasureUnfinished',
  'unavailable.images': 'errors.unavailableImages',
  'unavailable.mediaStore': 'errors.unavailableMediaStore',
  'unavailable.storage': 'errors.unavailableStorage',
  'unavailable.temporarily': 'errors.unavailableTemporarily',
  'unsupported.memoryFile': 'errors.unsupportedMemoryFile',
  'unsupported.noStillImage': 'errors.unsupportedNoStillImage',
  'unsupported.picture': 'errors.unsupportedPicture',
} as const satisfies Record<string, MessageId>;

/**
 * The server's refusals shown as the server wrote them: the console's (it is in English), the
 * programme's import, and what no screen of a person's sends (a malformed or foreign request).
 * `invalid.schema` is written from the schema's own message (`validationText`).
 */
export const LEFT_IN_ENGLISH: readonly string[] = [
  'badRequest.nullCharacter',
  'badRequest.tooManyFields',
  'badRequest.unexpectedFileField',
  'badRequest.onePicture',
  'badRequest.logoField',
  'badRequest.tooManyPixels',
  'badRequest.unreadableLogo',
  'badRequest.uploadLength',
  'badRequest.schedule',
  'badRequest.scheduleUrl',
  'badRequest.scheduleFetch',
  'invalid.schema',
  'invalid.fieldTooLong',
  'invalid.endsBeforeStarts',
  'invalid.unknownRoom',
  'invalid.unknownSpeakers',
  'invalid.poll',
  'invalid.purgeConfirm',
  'invalid.unknownSession',
  'invalid.unknownReaction',
  'invalid.notSessionSpeaker',
  'invalid.pushEndpoint',
  'unauthorized.adminMissing',
  'unauthorized.adminInvalid',
  'unauthorized.adminExpired',
  'unauthorized.adminCredentials',
  'forbidden.crossOrigin',
  'forbidden.finishedUpload',
  'forbidden.otherSpeakersExport',
  'notFound.pollAnswer',
  'notFound.leaderboard',
  'notFound.upload',
  'notFound.media',
  'notFound.room',
  'notFound.route',
  'conflict.uploadFinished',
  'conflict.roomHasSessions',
  'conflict.sessionHasPolls',
  'conflict.pollNotDraft',
  'conflict.pollState',
  'conflict.leaderboardNotYet',
  'tooLarge.schedule',
  'unsupported.notMultipart',
  'unsupported.logo',
  'rangeNotSatisfiable.range',
  'idempotencyKeyReused.reused',
  'tooManyRequests.loginAttempts',
  'tooManyRequests.archiveRunning',
  'tooManyRequests.archivesBusy',
  'unavailable.purgeUnfinished',
];

/** Values the client adds to a message: what the server's English text lists itself. */
const EXTRA_VALUES: Partial<Record<keyof typeof ERROR_MESSAGES, MessageValues>> = {
  'unsupported.memoryFile': { formats: ACCEPTED_FORMAT_NAMES.join(', ') },
  'unsupported.picture': { formats: ACCEPTED_IMAGE_FORMAT_NAMES.join(', ') },
};

const isKnown = (id: string): id is keyof typeof ERROR_MESSAGES =>
  Object.hasOwn(ERROR_MESSAGES, id);

/** `id` in the language shown, or undefined while its catalog is not read. */
function inCatalog(id: MessageId, values?: MessageValues): string | undefined {
  const text = translate(id, values);
  return text === id ? undefined : text;
}

/**
 * The text shown for a failed call: the server's refusal in the person's language when the
 * catalog has it (its `messageId` and `params`), else the server's English `error`; with no
 * readable answer, that the call failed (`status`), or with status 0 that there was no answer.
 */
export function errorText(status: number, body?: ErrorResponse): string {
  if (!body) {
    return status > 0
      ? (inCatalog('errors.requestFailed', { status }) ?? `Request failed (${status})`)
      : (inCatalog('errors.network') ?? 'Network error: check your connection and try again.');
  }
  const { messageId } = body;
  if (messageId === 'invalid.schema') return validationText(body.error);
  if (messageId !== undefined && isKnown(messageId)) {
    const values = { ...body.params, ...EXTRA_VALUES[messageId] };
    return inCatalog(ERROR_MESSAGES[messageId], values) ?? body.error;
  }
  if (messageId === undefined && body.code === 'INTERNAL') {
    return inCatalog('errors.internal') ?? body.error;
  }
  return body.error;
}
