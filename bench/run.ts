// `npm run bench`: starts the production server and a reference in their own processes, loads them
// from this process, and prints each figure beside the reference measured in the same run.
import os from 'node:os';
import { type Row, type SuiteResult, printTable } from './lib/report.ts';
import { archiveDownload } from './suites/archive.ts';
import { clientWeight } from './suites/client.ts';
import { conferenceProfile } from './suites/conference.ts';
import { questionFanout } from './suites/fanout.ts';
import { configThroughput } from './suites/foundation.ts';
import { galleryPolls } from './suites/gallery.ts';
import { joinCosts } from './suites/joins.ts';
import { lighthouseScores } from './suites/lighthouse.ts';
import { photos } from './suites/photos.ts';
import { livePoll } from './suites/polls.ts';
import { presenterView } from './suites/presenter.ts';
import { pushFanout } from './suites/push.ts';
import { reactionStorm } from './suites/reactions.ts';
import { scaleOut } from './suites/scaleout.ts';
import { keynoteStorm } from './suites/storm.ts';
import { twinInstances } from './suites/twin.ts';
import { notifyThroughput } from './suites/notify.ts';
import { tusVideoUpload, uploads } from './suites/uploads.ts';
import { videoRenditions } from './suites/video.ts';
import { votingRoom } from './suites/voting.ts';
import { wallMemory } from './suites/wall.ts';

const suites: Record<string, { title: string; run: () => Promise<Row[] | SuiteResult> }> = {
  foundation: { title: 'Whole-app overhead', run: configThroughput },
  gallery: { title: 'Gallery polling (memories)', run: galleryPolls },
  uploads: { title: 'Uploads (memories)', run: uploads },
  photos: { title: 'Phone photos (HEIC) through the image pipeline', run: photos },
  video: { title: 'Video renditions (memories)', run: videoRenditions },
  tus: { title: 'Resumable upload of a long video (tus)', run: tusVideoUpload },
  fanout: { title: 'Live questions (Q&A)', run: questionFanout },
  voting: { title: 'Voting in the keynote room (Q&A)', run: votingRoom },
  scaleout: { title: 'Scale-out on PostgreSQL', run: scaleOut },
  client: { title: 'Client weight (before first render)', run: clientWeight },
  lighthouse: { title: 'Lighthouse (mobile)', run: lighthouseScores },
  presenter: { title: 'Presenter view on the projector', run: presenterView },
  wall: { title: 'The photo wall on the projector', run: wallMemory },
  archive: { title: 'Download all (ZIP of every memory)', run: archiveDownload },
  conference: { title: 'Conference profile and ceiling', run: conferenceProfile },
  joins: { title: 'One person, one vote: the cost of joins', run: joinCosts },
  polls: { title: 'A live poll in the keynote (5,000 answers, 5,000 watching)', run: livePoll },
  twin: { title: '20,000 attendees on two instances', run: twinInstances },
  storm: { title: 'The keynote rush and the poll storm on two instances', run: keynoteStorm },
  notify: {
    title: 'PostgreSQL NOTIFY throughput (the events between instances)',
    run: notifyThroughput,
  },
  push: {
    title: 'Announcements by Web Push (1,000 devices on a local HTTPS push service)',
    run: pushFanout,
  },
  reactions: {
    title: 'Reactions in the keynote (2,000 tapping once a second, 2,000 watching)',
    run: reactionStorm,
  },
};

const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

console.log(`# Confab benchmarks, ${new Date().toISOString()}`);
console.log(
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);

let failed = false;
for (const [name, suite] of Object.entries(suites)) {
  if (only && !only.includes(name)) continue;
  try {
    const result = await suite.run();
    printTable(suite.title, Array.isArray(result) ? result : result.rows);
    if (!Array.isArray(result)) {
      console.log('');
      for (const line of result.lines) console.log(line);
    }
  } catch (error) {
    failed = true;
    console.error(`Suite ${name} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);
