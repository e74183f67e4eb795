// The one block npm start prints when everything is up: where to click, how to log in, what to paste.
import { DEMO_PASSWORD, DEMO_REQUESTER, DEMO_WORKER } from './seed-demo.mjs';

export function printBanner({ publicUrl, project, keys, database, redis }) {
  const body = JSON.stringify({ task: { project_uuid: project.uuid, substitutions: { object: 'car' } } });
  const lines = [
    '',
    '━━━ Crowdbox is running ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━',
    '',
    `  App            ${publicUrl}/`,
    `  Worker area    ${publicUrl}/work`,
    `  Console        ${publicUrl}/console`,
    `  API docs       ${publicUrl}/api/docs`,
    `  Health         ${publicUrl}/readyz`,
    '',
    `  Requester      ${DEMO_REQUESTER.email}  /  ${DEMO_PASSWORD}`,
    `  Worker         ${DEMO_WORKER.email}  /  ${DEMO_PASSWORD}`,
    '',
    `  Project        demo-street-scenes  ${project.uuid}`,
    `  Live key       ${keys.live}`,
    `  Test key       ${keys.test}`,
    '',
    `  PostgreSQL     ${database}`,
    `  Redis          ${redis}`,
    '',
    '  Add a task with the live key:',
    '',
    `    curl -sS -X POST ${publicUrl}/api/v1/projects/add_task \\`,
    `      -H 'apikey: ${keys.live}' \\`,
    `      -H 'content-type: application/json' \\`,
    `      -d '${body}'`,
    '',
    '  Ctrl-C stops everything.',
    '━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
