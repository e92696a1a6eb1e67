import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { type Encoding, varyOnAcceptEncoding } from '../http/transport/compression.ts';
import { answerNotModified } from '../http/transport/conditional-get.ts';
import type { ListCache, ListName } from './list-cache.ts';
import { onePer } from '../lib/one-per.ts';

/** One view of a list that a request asks for. */
export interface ListView {
  topic: ListName;
  /** Which version decides the view (see `ListCache`). */
  scope: string;
  /** Names the answer: every request with this key gets the same body for the same version. */
  key: string;
  /** The view's rows as they are now; serialised with the route's response schema. */
  rows(): Promise<unknown>;
}

type ZodObjectLike = z.ZodType<Record<string, unknown>>;

/**
 * Who may read a list, as `auth/route-options.ts` makes it: the check that resolves the caller,
 * and how the OpenAPI document says so. Named here, so that lists/ imports nothing of auth/.
 */
interface ListAccess {
  check: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  security?: readonly Record<string, readonly string[]>[];
}

interface ListRouteBase<Query extends ZodObjectLike, Params extends ZodObjectLike> {
  url: string;
  /** For the OpenAPI document (`/api/openapi.json`). */
  tags?: string[];
  summary?: string;
  /** Who may read it (anyone when not given): resolved before a poll is answered. */
  access?: ListAccess;
  querystring?: Query;
  params?: Params;
  /** The schema of one answer (the list). */
  response: z.ZodType;
}

/**
 * A list route. `view` names the view from the URL alone (its query and parameters), so a poll
 * whose version is in memory is answered in the route's `onRequest` hook, before validation
 * and the handler. `resolveView` is for a view that needs the database to be named (the
 * dashboard of a speaker given by username): ETag and 304 still apply, after the handler read it.
 */
export type ListRouteOptions<
  Query extends ZodObjectLike,
  Params extends ZodObjectLike,
> = ListRouteBase<Query, Params> &
  (
    | { view(input: { query: z.output<Query>; params: z.output<Params> }): ListView }
    | {
        resolveView(input: {
          query: z.output<Query>;
          params: z.output<Params>;
          request: FastifyRequest;
        }): Promise<ListView>;
      }
  );

/**
 * The list routes whose view is named by their address alone, by path, for `readListAnswer`:
 * each reads a query (as Fastify parses it) into its view, or null when the route would refuse it.
 */
type ReadView = (query: unknown) => { view: ListView; json: () => Promise<string> } | null;
const routesOf = onePer((_lists: ListCache) => new Map<string, ReadView>());

/**
 * The answer a `GET` of `url` (path and query) on a list route gives now, as its JSON and the
 * ETag of its version, read through the same cache as the route's polls: what a page carries
 * when the server renders a screen with its first lists (decision 185). Undefined for an address
 * no list route answers this way.
 */
export async function readListAnswer(
  lists: ListCache,
  url: string,
): Promise<{ tag: string; json: string } | undefined> {
  const [pathname = '', search = ''] = url.split('?', 2);
  const read = routesOf(lists).get(pathname);
  const found = read?.(Object.fromEntries(new URLSearchParams(search)));
  if (!found) return undefined;
  const { view, json } = found;
  const tag = lists.tag(view.key, await lists.version(view.topic, view.scope));
  const { body } = await lists.body(view.key, tag, json, undefined);
  return { tag, json: body.toString() };
}

/** URLs whose view is known (null: not a plain form, the handler answers); reset when full. */
const MAX_KNOWN_URLS = 4096;

/**
 * Registers a `GET` list route on the one list mechanism: ETag and 304 from the version in
 * memory, the JSON made once per version and compressed once per encoding, the route's own
 * hooks, schemas and error handling for everything else.
 */
export function listRoute<Query extends ZodObjectLike, Params extends ZodObjectLike>(
  lists: ListCache,
  options: ListRouteOptions<Query, Params>,
): FastifyPluginAsyncZod {
  return async (app) => {
    const serialise = (rows: unknown) => JSON.stringify(options.response.parse(rows));
    /** The JSON of a view as it is now. */
    const jsonOf = (view: ListView) => async () => serialise(await view.rows());
    /** The view a query and parameters name, or null when the route refuses them. */
    const viewOf = (query: unknown, params: unknown): ListView | null => {
      if (!('view' in options)) return null;
      const parsedQuery = (options.querystring ?? z.object({})).safeParse(query);
      const parsedParams = (options.params ?? z.object({})).safeParse(params);
      return parsedQuery.success && parsedParams.success
        ? options.view({
            query: parsedQuery.data as z.output<Query>,
            params: parsedParams.data as z.output<Params>,
          })
        : null;
    };
    if ('view' in options && !options.params) {
      routesOf(lists).set(options.url, (query) => {
        const view = viewOf(query, {});
        return view && { view, json: jsonOf(view) };
      });
    }
    const answer = (
      request: FastifyRequest,
      reply: FastifyReply,
      view: ListView,
      version: string,
    ) => answerList(lists, request, reply, view, version, jsonOf);

    const known = new Map<string, ListView | null>();
    const viewOfUrl = (request: FastifyRequest): ListView | null => {
      let view = known.get(request.url);
      if (view === undefined) {
        view = viewOf(request.query, request.params);
        if (known.size >= MAX_KNOWN_URLS) known.clear();
        known.set(request.url, view);
      }
      return view;
    };

    // Every open screen polls its lists every few seconds: a poll whose version is known here
    // is answered now, with no database query and nothing serialised. A callback hook, so that
    // the most frequent answers, a 304 and a full answer whose body is made already, are sent
    // without a promise.
    const answerKnown: onRequestHookHandler = (request, reply, done) => {
      const view = viewOfUrl(request);
      const version = view ? lists.peek(view.topic, view.scope) : undefined;
      if (!view || version === undefined) {
        done();
        return;
      }
      const sent = answer(request, reply, view, version);
      if (sent instanceof Promise) sent.catch(done);
    };

    app.get(
      options.url,
      {
        schema: {
          ...(options.tags ? { tags: options.tags } : {}),
          ...(options.summary ? { summary: options.summary } : {}),
          ...(options.access?.security ? { security: options.access.security } : {}),
          ...(options.querystring ? { querystring: options.querystring } : {}),
          ...(options.params ? { params: options.params } : {}),
          response: { 200: options.response, 304: z.null(), '4xx': errorResponseSchema },
        },
        // A list open to some callers only answers them alone, known or not.
        onRequest: options.access ? [options.access.check, answerKnown] : answerKnown,
      },
      async (request, reply) => {
        const input = {
          query: request.query as z.output<Query>,
          params: request.params as z.output<Params>,
        };
        const view =
          'view' in options
            ? options.view(input)
            : await options.resolveView({ ...input, request });
        return answer(request, reply, view, await lists.version(view.topic, view.scope));
      },
    );
  };
}

/**
 * Answers a view at a version: 304 when the client holds it, else its JSON, as accepted. Sent at
 * once when that body is made already (almost every full answer of a poll), else once it is.
 */
function answerList(
  lists: ListCache,
  request: FastifyRequest,
  reply: FastifyReply,
  view: ListView,
  version: string,
  jsonOf: (view: ListView) => () => Promise<string>,
): FastifyReply | Promise<FastifyReply> {
  const tag = lists.tag(view.key, version);
  if (answerNotModified(request, reply, tag)) return reply;
  const accepted = lists.answers.acceptedEncoding(request.headers['accept-encoding']);
  const made = lists.madeBody(view.key, tag, accepted);
  if (made) return sendList(reply, made.body, made.encoding);
  return lists
    .body(view.key, tag, jsonOf(view), accepted)
    .then(({ body, encoding }) => sendList(reply, body, encoding));
}

function sendList(reply: FastifyReply, body: Buffer, encoding: Encoding | undefined) {
  reply.header('content-type', 'application/json; charset=utf-8');
  varyOnAcceptEncoding(reply);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}
