import { templateVariables } from '@crowdbox/contracts';
import type { ProjectDraft, VariableDraft } from '../lib/project-draft';
import { variableDraft, visibleVariables } from '../lib/project-draft';

interface Props {
  draft: ProjectDraft;
  onChange: (name: string, patch: Partial<VariableDraft>) => void;
  errorFor: (field: string) => string | undefined;
}

/**
 * The `[[variables]]` of the template, found as it is typed: a default for each (sent to the API; empty
 * means every task must give a value) and a sample (only for the preview).
 */
export function VariablesEditor({ draft, onChange, errorFor }: Props) {
  const names = visibleVariables(draft);
  const inTemplate = new Set(templateVariables(draft.template));
  return (
    <fieldset className="cbc-fieldset" data-testid="variables-editor">
      <legend>Variables</legend>
      {names.length === 0 ? (
        <p className="field-hint">
          No variables yet. Write <code>[[name]]</code> in the template where each task&apos;s own text goes.
        </p>
      ) : (
        <>
          <p className="field-hint">
            Each task fills these in through <code>substitutions</code>. A default is used when a task leaves one out; without a
            default every task must give it. Samples only feed the preview.
          </p>
          <div className="table-scroll">
            <table className="table cbc-variables">
              <thead>
                <tr>
                  <th scope="col">Variable</th>
                  <th scope="col">Default</th>
                  <th scope="col">Sample for the preview</th>
                </tr>
              </thead>
              <tbody>
                {names.map((name) => {
                  const value = variableDraft(draft, name);
                  const error = errorFor(`variables.${name}`);
                  const id = `var-${name}`;
                  return (
                    <tr key={name} data-testid={`variable-${name}`}>
                      <th scope="row">
                        <code>{`[[${name}]]`}</code>
                        {name === draft.image_variable && <span className="badge cbc-badge-gap">image</span>}
                      </th>
                      <td>
                        <input
                          id={`${id}-default`}
                          className="input"
                          value={value.default}
                          placeholder={inTemplate.has(name) ? 'none: each task gives it' : 'none: optional'}
                          aria-label={`Default for ${name}`}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${id}-error` : undefined}
                          onChange={(e) => onChange(name, { default: e.target.value })}
                        />
                        {error && (
                          <p className="field-error" id={`${id}-error`}>
                            {error}
                          </p>
                        )}
                      </td>
                      <td>
                        {inTemplate.has(name) ? (
                          <input
                            id={`${id}-sample`}
                            className="input"
                            value={value.sample}
                            placeholder={value.default || `sample ${name}`}
                            aria-label={`Sample value of ${name} for the preview`}
                            onChange={(e) => onChange(name, { sample: e.target.value })}
                          />
                        ) : (
                          <span className="muted cbc-small">not in the template</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </fieldset>
  );
}
