import fp from 'fastify-plugin';
import { type AdminAuth, createAdminAuth } from '../admin/admin-auth.ts';
import { ErasedAttendees } from '../attendees/attendee-erasures.ts';
import { JoinProofs } from '../attendees/join-proof.ts';
import { type Callers, createCallers } from '../auth/callers.ts';
import { PartyTokenSigner } from '../auth/tokens.ts';
import { CALLER } from '../http/transport/rate-limits.ts';
import { tokenSecret } from '../settings/settings.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The admin's login: credentials, failed-login limits, tokens. */
    adminAuth: AdminAuth;
    /** Who a request comes from: admin, speaker or attendee tokens. */
    callers: Callers;
    /** The proofs of work that joins past an address's free ones cost. */
    joinProofs: JoinProofs;
  }
}

/** Who calls: the admin's login and token, attendee and speaker tokens (decision 111). */
export const callersPlugin = fp(
  async (app) => {
    const { config, clock, database } = app;
    const secret = await tokenSecret(database.db, config);
    const admin = createAdminAuth({ config, clock }, app.log);
    app.decorate('adminAuth', admin);
    // Erased attendees' tokens are refused from memory, on every instance (decision 214).
    const erasures = await ErasedAttendees.open(database.db, app.events, clock);
    app.decorate(
      'callers',
      createCallers({
        db: database.db,
        clock,
        admin,
        tokens: new PartyTokenSigner(secret),
        erasures,
      }),
    );
    // Joins past the free ones of an address cost a proof of work (decision 198).
    app.decorate('joinProofs', new JoinProofs(config.joinProof, clock, secret));
    // The caller a route's access resolved (none for a route that reads no token); rate limits
    // key on its attendee.
    app.decorateRequest(CALLER, null);
  },
  { name: 'callers', dependencies: ['config', 'database', 'events'] },
);
