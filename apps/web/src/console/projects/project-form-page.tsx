import type { ConsoleProjectResponse, ErrorItem } from '@crowdbox/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, errorItems, mayHaveArrived } from '../../api/client';
import { KeyPerBody } from '../../api/idempotency-key';
import { useSession } from '../../auth/session-context';
import { ErrorList } from '../../shell/error-list';
import { LoadView } from '../components/load-view';
import { consoleApi } from '../lib/console-api';
import { clearFormDraft, loadFormDraft, saveFormDraft } from '../lib/form-draft-store';
import { draftFromProject, emptyDraft, isProjectDraft, previewValues, TEXT_FIELDS, templateChangedBySave, toProjectBody, type ProjectDraft, type VariableDraft } from '../lib/project-draft';
import { useLoad } from '../lib/use-load';
import { CostEstimate } from './cost-estimate';
import { DraftNote } from './draft-note';
import { LabelChangeDialog, labelChangeToConfirm, type LabelChange } from './label-change-dialog';
import { LabelsEditor } from './labels-editor';
import { ProjectHeader } from './project-header';
import { TemplatePreview } from './template-preview';
import { TextField, type FieldOptions } from '../../shell/text-field';
import { useFocusFirstError } from '../../shell/use-focus-first-error';
import { VariablesEditor } from './variables-editor';

/** /console/projects/new and /console/projects/:uuid/settings: one form for both. */
export function ProjectFormPage() {
  const { projectUuid } = useParams();
  if (!projectUuid) {
    return (
      <div className="page">
        <div className="page-header">
          <h1>New project</h1>
        </div>
        <ProjectForm initial={emptyDraft()} />
      </div>
    );
  }
  return <EditProject uuid={projectUuid} />;
}

function EditProject({ uuid }: { uuid: string }) {
  const { state, reload } = useLoad((signal) => consoleApi.project(uuid, signal), [uuid]);
  return (
    <div className="page">
      <LoadView state={state} label="Loading the project" onRetry={reload}>
        {(project) => (
          <>
            <ProjectHeader uuid={uuid} title={project.display_name} />
            <ProjectForm key={project.uuid} initial={draftFromProject(project)} project={project} onReload={reload} />
          </>
        )}
      </LoadView>
    </div>
  );
}

function isShownByAField(field: string): boolean {
  return (TEXT_FIELDS as readonly string[]).includes(field) || field === 'labels' || field.startsWith('labels.') || field.startsWith('variables.');
}

interface FormProps {
  initial: ProjectDraft;
  /** The project being edited; none for a new one. */
  project?: ConsoleProjectResponse;
  /** Reads the project again (after a save, or when it was saved elsewhere); the form keeps what was typed. */
  onReload?: () => void;
}

/** A save refused because the project was saved elsewhere since the form read it (expected_updated_at). */
function isChangedElsewhere(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.fieldError('expected_updated_at') !== undefined;
}

function ProjectForm({ initial, project, onReload }: FormProps) {
  const navigate = useNavigate();
  // <RequireSession> shows the console only to a signed-in user; the stored draft is that user's.
  const userId = useSession().user?.id ?? '';
  const draftRoute = project ? `/console/projects/${project.uuid}/settings` : '/console/projects/new';
  // The newest version of the project known here: a save's answer until the page's re-read (onReload)
  // brings that version or a newer one. Saves go over it (expected_updated_at) and label changes are
  // measured against its labels: with the prop alone, a second Save pressed before the re-read arrived
  // went over the version the first save had replaced, and was refused as "changed elsewhere".
  const [savedVersion, setSavedVersion] = useState<ConsoleProjectResponse | null>(null);
  const current = project && savedVersion && Date.parse(savedVersion.updated_at) > Date.parse(project.updated_at) ? savedVersion : project;
  // A settings draft is restored only over the very version of the project it was typed over.
  const base = current?.updated_at ?? null;
  const [stored] = useState(() => (userId ? loadFormDraft(userId, draftRoute, isProjectDraft, base) : null));
  const [restoreNote, setRestoreNote] = useState(stored?.status ?? null);
  const [draft, setDraft] = useState(stored?.status === 'restored' ? stored.value : initial);
  // Only what the user typed is stored: not the form as loaded, nor the template as the server stored it.
  const edited = useRef(false);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<'' | 'as typed' | 'template changed'>('');
  // The last save got no answer: the server may have made it.
  const [unsure, setUnsure] = useState(false);
  // Create sends the same Idempotency-Key with the same form, so pressing it again after no answer
  // cannot make a second project.
  const createKeys = useRef(new KeyPerBody());
  const [labelChange, setLabelChange] = useState<LabelChange | null>(null);
  // The version a save was refused over (saved elsewhere since); once the newer one is read, the note says
  // that what was typed stayed, and the next save goes over the newer version.
  const [conflictAt, setConflictAt] = useState<string | null>(null);
  const reloaded = conflictAt !== null && current?.updated_at !== conflictAt;
  const conflictRef = useRef<HTMLDivElement>(null);
  const errorFor = (field: string) => errors.find((e) => e.field === field)?.detail;
  const formRef = useRef<HTMLFormElement>(null);
  // After a refused save, the keyboard lands on the first field the API named.
  const refused = useFocusFirstError(formRef);

  // The Save button was busy and the note's Reload button goes away once it is done: the keyboard goes to the note.
  useEffect(() => {
    if (conflictAt) conflictRef.current?.focus();
  }, [conflictAt, reloaded]);

  useEffect(() => {
    if (edited.current && userId) saveFormDraft(userId, draftRoute, draft, base);
  }, [draft, userId, draftRoute, base]);

  const forgetDraft = () => {
    edited.current = false;
    if (userId) clearFormDraft(userId, draftRoute);
  };
  const discardRestored = () => {
    forgetDraft();
    setDraft(initial);
    setErrors([]);
    setConflictAt(null);
    setRestoreNote(null);
  };

  /** Drops the errors of the fields `refersTo` names: the user is changing what they were about. */
  const clearErrors = (refersTo: (field: string) => boolean) =>
    setErrors((list) => (list.some((e) => refersTo(e.field)) ? list.filter((e) => !refersTo(e.field)) : list));

  const set = <K extends keyof ProjectDraft>(key: K, value: ProjectDraft[K]) => {
    edited.current = true;
    setSaved('');
    clearErrors((field) => field === key);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  /**
   * The API names a label by its position (`labels.2`), so an error stays right only while the list does:
   * after a label is added or removed (`edited` undefined) every label error goes; after one label is
   * edited, that label's.
   */
  const setLabels = (labels: ProjectDraft['labels'], edited?: number) => {
    clearErrors((field) => (edited === undefined ? field.startsWith('labels.') : field === `labels.${edited}` || field.startsWith(`labels.${edited}.`)));
    set('labels', labels);
  };
  const setVariable = (name: string, patch: Partial<VariableDraft>) => {
    edited.current = true;
    setSaved('');
    clearErrors((field) => field === `variables.${name}`);
    setDraft((d) => ({
      ...d,
      variables: { ...d.variables, [name]: { ...(d.variables[name] ?? { default: '', sample: '' }), ...patch } },
    }));
  };

  const save = async () => {
    setBusy(true);
    setErrors([]);
    setUnsure(false);
    setSaved('');
    try {
      const body = toProjectBody(draft);
      if (current) {
        const updated = await consoleApi.updateProject(current.uuid, current.updated_at, body);
        setSavedVersion(updated);
        forgetDraft();
        setRestoreNote(null);
        setConflictAt(null);
        // The form keeps its key across the reload, so it shows the stored template only if set here.
        setDraft((d) => ({ ...d, template: updated.template }));
        setSaved(templateChangedBySave(body.template, updated.template) ? 'template changed' : 'as typed');
        onReload?.();
      } else {
        const created = await consoleApi.createProject(body, createKeys.current.keyFor(body));
        forgetDraft();
        navigate(`/console/projects/${created.uuid}`);
      }
    } catch (error) {
      if (current && isChangedElsewhere(error)) {
        setConflictAt(current.updated_at);
      } else {
        refused();
        setErrors(errorItems(error));
        // The save may have been made: the project is read again, so the next Save goes over the version
        // the server has now instead of being refused as "changed elsewhere" (by this very save).
        if (mayHaveArrived(error)) {
          setUnsure(true);
          onReload?.();
        }
      }
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // Busy from the press on: a second press while the outstanding tasks are read would save twice, and
    // the second save, made over the version the first replaced, was refused as "changed elsewhere".
    setBusy(true);
    try {
      const change = current ? await labelChangeToConfirm(current, draft.labels) : null;
      if (change) {
        setBusy(false);
        return setLabelChange(change);
      }
    } catch (error) {
      setBusy(false);
      refused();
      return setErrors(errorItems(error));
    }
    await save();
  };

  const field = (name: keyof ProjectDraft & string, label: string, options: FieldOptions = {}) => (
    <TextField id={`project-${name}`} name={name} label={label} value={draft[name] as string} error={errorFor(name)} onChange={(v) => set(name, v as never)} {...options} />
  );

  const templateError = errorFor('template');
  const otherErrors = errors.filter((e) => !isShownByAField(e.field));
  const reward = Number(draft.default_reward);
  const seconds = Number(draft.allowed_completion_time_seconds);

  return (
    <form ref={formRef} className="cbc-project-form" onSubmit={onSubmit} noValidate aria-label={project ? 'Project settings' : 'New project'}>
      <div className="cbc-project-form__main">
        <DraftNote status={restoreNote} onDiscard={discardRestored} onDismiss={() => setRestoreNote(null)} />
        {conflictAt && (
          <div className={`alert ${reloaded ? 'info' : 'warning'} cbc-draft-note`} role="status" tabIndex={-1} ref={conflictRef} data-testid="changed-elsewhere">
            {reloaded ? (
              <span>The newer version is loaded. What you typed is still here, not saved yet: Save changes puts it over the newer version.</span>
            ) : (
              <>
                <span>Not saved: this project was changed elsewhere after you opened it. Reload it to save over the newer version; what you typed stays here.</span>
                <button type="button" className="button small" onClick={onReload}>
                  Reload the project
                </button>
              </>
            )}
          </div>
        )}
        {errors.length > 0 &&
          (otherErrors.length > 0 ? (
            <ErrorList
              title={
                !unsure
                  ? 'The project was not saved.'
                  : project
                    ? 'No answer from the server: the changes may have been saved. The project is read again; Save changes again to be sure.'
                    : 'No answer from the server: the project may have been created. Press Create project again without changing the form: a project it made is opened, not made twice.'
              }
              errors={otherErrors}
            />
          ) : (
            <p className="alert error" role="alert">
              The project was not saved: see the marked fields.
            </p>
          ))}
        <section className="card">
          <h2>About</h2>
          {field('name', 'Name', { hint: 'For you and your programs; workers never see it.' })}
          {field('display_name', 'Display name', { hint: 'The title workers see in their list of work.' })}
          <div className="field">
            <label htmlFor="project-display_short_description">Short description</label>
            <textarea
              id="project-display_short_description"
              className="cbc-textarea-plain"
              rows={2}
              value={draft.display_short_description}
              aria-invalid={errorFor('display_short_description') ? true : undefined}
              aria-describedby={errorFor('display_short_description') ? 'project-display_short_description-error' : undefined}
              onChange={(e) => set('display_short_description', e.target.value)}
            />
            {errorFor('display_short_description') && (
              <p className="field-error" id="project-display_short_description-error">
                {errorFor('display_short_description')}
              </p>
            )}
          </div>
        </section>

        <section className="card">
          <h2>Instructions</h2>
          <div className="field">
            <label htmlFor="project-template">Template (HTML)</label>
            <textarea
              id="project-template"
              rows={8}
              spellCheck={false}
              value={draft.template}
              aria-invalid={templateError ? true : undefined}
              aria-describedby={templateError ? 'project-template-error project-template-hint' : 'project-template-hint'}
              onChange={(e) => set('template', e.target.value)}
            />
            {templateError && (
              <p className="field-error" id="project-template-error">
                {templateError}
              </p>
            )}
            <p className="field-hint" id="project-template-hint">
              Headings, paragraphs, lists, tables, links and images. Scripts, styles and event handlers are removed.
              Put <code>[[name]]</code> where each task&apos;s own text goes; values are HTML-escaped.
            </p>
          </div>
          <VariablesEditor draft={draft} onChange={setVariable} errorFor={errorFor} />
          <div className="field">
            <label htmlFor="project-image_variable">Image variable</label>
            <input
              id="project-image_variable"
              list="project-variable-names"
              value={draft.image_variable}
              aria-invalid={errorFor('image_variable') ? true : undefined}
              aria-describedby={errorFor('image_variable') ? 'project-image_variable-error project-image_variable-hint' : 'project-image_variable-hint'}
              onChange={(e) => set('image_variable', e.target.value)}
            />
            <datalist id="project-variable-names">
              {Object.keys(draft.variables).map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            {errorFor('image_variable') && (
              <p className="field-error" id="project-image_variable-error">
                {errorFor('image_variable')}
              </p>
            )}
            <p className="field-hint" id="project-image_variable-hint">
              The substitution that holds the image to annotate (when a task gives no <code>external_image_url</code>).
            </p>
          </div>
          <LabelsEditor labels={draft.labels} onChange={setLabels} errorFor={errorFor} />
        </section>

        <section className="card">
          <h2>Defaults for new tasks</h2>
          <div className="cbc-grid-2">
            {field('default_required_submissions', 'Required submissions', { type: 'number', min: 1, max: 100, hint: 'Workers per task, 1–100.' })}
            {field('default_reward', 'Reward (cents)', {
              type: 'number',
              min: 0,
              max: 100000,
              hint: Number.isFinite(reward) ? `${(reward / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' })} per submission.` : 'Cents per submission.',
            })}
            {field('allowed_completion_time_seconds', 'Time allowed (seconds)', {
              type: 'number',
              min: 30,
              max: 86400,
              hint: '30 s to 24 h for one worker to finish a task.',
            })}
            {field('consensus_iou_threshold', 'Consensus IoU threshold', {
              type: 'number',
              min: 0.05,
              max: 1,
              step: 0.05,
              hint: 'How much boxes must overlap to count as the same object (0–1].',
            })}
          </div>
        </section>

        <div className="cbc-form-actions">
          {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
          <button type="submit" className="button primary" aria-disabled={busy || undefined}>
            {busy ? 'Saving…' : project ? 'Save changes' : 'Create project'}
          </button>
          {saved && (
            <span className="cbc-saved" role="status">
              {saved === 'template changed' ? 'Saved. The template allowlist changed the template; it now reads as stored.' : 'Saved.'}
            </span>
          )}
        </div>
      </div>

      <aside className="cbc-project-form__side" aria-label="Preview and cost">
        <TemplatePreview
          template={draft.template}
          values={previewValues(draft)}
          displayName={draft.display_name}
          description={draft.display_short_description}
          labels={draft.labels}
          rewardCents={Number.isFinite(reward) ? reward : null}
          seconds={Number.isFinite(seconds) ? seconds : null}
        />
        <CostEstimate requiredSubmissions={draft.default_required_submissions} rewardCents={draft.default_reward} />
      </aside>
      <LabelChangeDialog
        change={labelChange}
        onConfirm={() => {
          setLabelChange(null);
          void save();
        }}
        onClose={() => setLabelChange(null)}
      />
    </form>
  );
}
