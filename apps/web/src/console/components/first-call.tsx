import { CopyButton } from './copy-button';

interface Props {
  projectUuid: string;
  /** The variables a task of this project needs, shown with placeholder values. */
  variables?: string[];
  /** The one that holds the image URL. */
  imageVariable?: string;
  /** A key just created; otherwise the snippet reads it from an environment variable. */
  secret?: string;
}

/** The first add_task call, ready to paste: this server's address, the project's UUID, the key. */
export function FirstCall({ projectUuid, variables = ['image_url'], imageVariable = 'image_url', secret }: Props) {
  const origin = window.location.origin;
  const substitutions = Object.fromEntries(
    variables.map((name) => [name, name === imageVariable ? 'https://example.com/photo.jpg' : `your ${name}`]),
  );
  const body = JSON.stringify({ task: { project_uuid: projectUuid, substitutions } }, null, 2);
  const key = secret ?? '$CROWDBOX_API_KEY';
  const snippet = [
    `curl -X POST ${origin}/api/v1/projects/add_task \\`,
    `  -H "apikey: ${key}" \\`,
    `  -H "content-type: application/json" \\`,
    `  -d '${body.replace(/'/g, "'\\''")}'`,
  ].join('\n');
  return (
    <div className="cbc-snippet" data-testid="first-call">
      <div className="cbc-snippet__bar">
        <span className="muted cbc-small">
          Your first call{secret ? '' : <> — set <code>CROWDBOX_API_KEY</code> to a live key first</>}
        </span>
        <CopyButton text={snippet} what="curl command" />
      </div>
      {/* Focusable so a keyboard can scroll it; a region so its name is read (aria-label on a <pre> with
          no role is ignored by most screen readers: axe aria-prohibited-attr, a11y/pages.spec). */}
      <pre tabIndex={0} role="region" aria-label="curl command">
        <code>{snippet}</code>
      </pre>
    </div>
  );
}
