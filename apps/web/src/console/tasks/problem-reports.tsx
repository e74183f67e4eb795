import { DateTime } from '../components/date-time';
import type { ConsoleTaskDetail } from '../lib/console-api';
import { PROBLEM_TEXT } from '../../shell/problem-text';

/** The task page's "Problems reported by workers": each reason with how many gave it and when last, most reported first. */
export function ProblemReports({ problems }: { problems: ConsoleTaskDetail['problems'] }) {
  return (
    <section className="card cbc-task__problems" aria-labelledby="problems-title" data-testid="problem-reports">
      <h2 id="problems-title">Problems reported by workers</h2>
      {problems.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Problem</th>
                  <th scope="col" className="num">
                    Reports
                  </th>
                  <th scope="col">Last reported</th>
                </tr>
              </thead>
              <tbody>
                {problems.map((p) => (
                  <tr key={p.problem} data-testid="problem-row">
                    <td>{PROBLEM_TEXT[p.problem]}</td>
                    <td className="num">{p.count}</td>
                    <td>
                      <DateTime iso={p.last_reported_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {/* docs/decisions.md, "Problem reports": a report does not hold the task back. */}
          <p className="cbc-small muted">The task still goes out to other workers, since a report may be mistaken.</p>
        </>
      )}
    </section>
  );
}
