import fp from 'fastify-plugin';
import { AnswerMemo } from '../http/transport/answer-memo.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the app's answers remember from one request to the next (tags, encodings). */
    answers: AnswerMemo;
  }
}

/** The app's own memo of tags and encodings (decision 206): two apps share nothing. */
export const answerMemoPlugin = fp(
  async (app) => {
    app.decorate('answers', new AnswerMemo());
  },
  { name: 'answer-memo' },
);
