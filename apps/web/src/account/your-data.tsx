import { sessionApi } from '../api/session.api';

/**
 * "Your data" (docs/decisions.md, "Downloading your data"): a plain link, as the project's results
 * downloads are. The cookie goes with a same-origin GET and the server names the file, so the browser
 * streams it to disk whatever its size, with no script holding it in memory.
 */
export function YourData() {
  return (
    <section className="card account-card" aria-labelledby="your-data-title">
      <h2 id="your-data-title">Your data</h2>
      <p className="muted">
        One JSON file of what Crowdbox keeps about you and your account: your profile, sessions, API keys, projects, webhook addresses, blocked workers, and
        every submission you made as a worker with its boxes. Secrets (your password, keys and signing secrets) are not in it. The tasks and results of your
        projects are downloaded from each project&rsquo;s page in the console (Download JSON, COCO or CSV).
      </p>
      <a className="button" href={sessionApi.exportUrl} download>
        Download your data
      </a>
    </section>
  );
}
