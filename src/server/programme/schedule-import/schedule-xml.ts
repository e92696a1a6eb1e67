import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ParsedSchedule } from './parsed-schedule.ts';
import { oneLine, scheduleProblem } from './parsed-schedule.ts';
import {
  type RawEvent,
  type RawPerson,
  type RawSchedule,
  normaliseSchedule,
} from './schedule-normalise.ts';

/** The five entities XML itself defines. */
const XML_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi;

/** A character reference's character, when it names one XML allows. */
function referenced(code: number): string | undefined {
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? String.fromCodePoint(code) : undefined;
}

/**
 * The parser's entity decoder: the five XML entities and numeric character references, nothing
 * else. Entities a document declares are never added (and a DOCTYPE is refused before parsing),
 * so no entity can fetch a file or expand; an unknown reference stays as it is written.
 */
const xmlEntities = {
  setExternalEntities: () => undefined,
  addInputEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
  decode: (text: string) =>
    text.includes('&')
      ? text.replace(REFERENCE, (whole, decimal?: string, hex?: string, name?: string) => {
          if (name !== undefined) return XML_ENTITIES[name] ?? whole;
          return referenced(decimal ? Number(decimal) : parseInt(hex ?? '', 16)) ?? whole;
        })
      : text,
};

/** Elements that repeat: always lists, even when a file has one of them. */
const LISTS = new Set([
  'schedule.day',
  'schedule.day.room',
  'schedule.day.room.event',
  'schedule.day.room.event.persons.person',
  'schedule.conference.rooms.room',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Text stays text: a guid "0042" or a title "2024" is not a number.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  entityDecoder: xmlEntities,
  // No element of a schedule nests deeper than a few levels; a deep file is refused.
  maxNestedTags: 32,
  captureMetaData: true,
  isArray: (_name, path) => LISTS.has(String(path)),
});

const META = XMLParser.getMetaDataSymbol();

/** A declaration that could define entities or fetch a DTD: refused, wherever it appears. */
const DECLARATION = /<!(DOCTYPE|ENTITY)/i;

type XmlNode = Record<string, unknown>;

/** Line numbers of a text: the line of a character index. */
function lineIndex(xml: string): (index: number) => number {
  const starts = [0];
  for (let i = xml.indexOf('\n'); i !== -1; i = xml.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= index) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

const isNode = (value: unknown): value is XmlNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An element's text: its own text, whether it has attributes or not; '' when empty or absent. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isNode(value)) return text(value['#text']);
  return '';
}

const attribute = (node: XmlNode, name: string): string | undefined => {
  const value = node[`@${name}`];
  return typeof value === 'string' ? value : undefined;
};

const children = (node: XmlNode, name: string): XmlNode[] => {
  const value = node[name];
  return Array.isArray(value) ? value.filter(isNode) : [];
};

/**
 * Reads a pretalx or frab `schedule.xml`. A DOCTYPE or ENTITY declaration is refused before
 * anything is parsed (no DTD, no external or custom entity: XXE and entity expansion cannot
 * happen); a file that is not well-formed is refused naming its line.
 */
export function parseScheduleXml(xml: string): ParsedSchedule {
  const lineOf = lineIndex(xml);
  const declaration = DECLARATION.exec(xml);
  if (declaration) {
    throw scheduleProblem(
      `line ${lineOf(declaration.index)}`,
      `a ${declaration[1]?.toUpperCase() ?? 'DOCTYPE'} declaration is not accepted (DTDs and entities are refused)`,
    );
  }
  // The parser itself is lenient (a stray closing tag passes); its validator, still shipped
  // with it in v5, names the line. Its successor is a separate package not installed here.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw scheduleProblem(`line ${valid.err.line}`, oneLine(valid.err.msg));
  }
  let document: XmlNode;
  try {
    document = parser.parse(xml) as XmlNode;
  } catch (error) {
    throw scheduleProblem(
      'the file',
      oneLine(error instanceof Error ? error.message : 'unreadable'),
    );
  }
  const schedule = document.schedule;
  if (!isNode(schedule)) {
    throw scheduleProblem('line 1', 'the root element is not <schedule>');
  }
  const at = (node: XmlNode, fallback: string) => {
    const meta = node[META as unknown as string] as { startIndex?: number } | undefined;
    return meta?.startIndex === undefined ? fallback : `line ${lineOf(meta.startIndex)}`;
  };
  const conference = isNode(schedule.conference) ? schedule.conference : undefined;
  const roomOrder =
    conference && isNode(conference.rooms) ? children(conference.rooms, 'room') : [];
  const events: RawEvent[] = [];
  const days = children(schedule, 'day');
  days.forEach((day, dayIndex) => {
    const dayWhere = at(day, `day ${dayIndex + 1}`);
    for (const room of children(day, 'room')) {
      const roomName = oneLine(attribute(room, 'name') ?? '');
      if (!roomName) throw scheduleProblem(at(room, dayWhere), 'a <room> has no name');
      for (const event of children(room, 'event')) {
        const persons = isNode(event.persons) ? children(event.persons, 'person') : [];
        events.push({
          where: at(event, `${dayWhere}, room ${roomName}`),
          guid: attribute(event, 'guid'),
          id: attribute(event, 'id'),
          date: text(event.date),
          start: text(event.start),
          duration: text(event.duration),
          room: roomName,
          title: text(event.title),
          abstract: text(event.abstract),
          description: text(event.description),
          track: text(event.track),
          persons: persons.map((person): RawPerson => ({
            code: attribute(person, 'code'),
            guid: attribute(person, 'guid'),
            id: attribute(person, 'id'),
            name: text(person),
          })),
          day: { date: attribute(day, 'date'), start: attribute(day, 'start'), where: dayWhere },
        });
      }
    }
  });
  const raw: RawSchedule = {
    conference: conference && {
      where: at(conference, 'conference'),
      title: text(conference.title),
      timezone: text(conference.time_zone_name),
    },
    dayCount: days.length,
    rooms: roomOrder.map((room) => oneLine(attribute(room, 'name') ?? '')).filter(Boolean),
    events,
  };
  return normaliseSchedule(raw);
}
