/**
 * The policy form's values and the body it sends: the whole policy, with the parts the caller may not change
 * sent back as they are (the daemon compares them; docs/backups.md § Retention, limits, schedules). Custom hooks
 * are edited as text — one console line per line — and checked against the contract's own schema before saving.
 */
import {
  backupHooksSchema,
  type BackupHooks,
  type BackupPolicyInput,
  type BackupPolicyView,
} from '@hearth/contract/backups';

export type HooksChoice = 'template' | 'none' | 'custom';

export interface HooksForm {
  pre: string;
  waitFor: string;
  post: string;
  timeoutSeconds: number;
}

export interface PolicyForm {
  retention: BackupPolicyView['retention'];
  schedule: string;
  hooks: HooksChoice;
  custom: HooksForm;
  limits: BackupPolicyView['limits'];
}

/** backupHooksSchema's bounds, for the messages. */
export const HOOK_LIMITS = { lines: 20, lineChars: 1000, waitForChars: 200, minSeconds: 1, maxSeconds: 3600 };

export function policyForm(view: BackupPolicyView): PolicyForm {
  const hooks = view.hooks || null;
  return {
    retention: { ...view.retention },
    schedule: view.schedule ?? '',
    hooks: view.hooks === null ? 'template' : view.hooks === false ? 'none' : 'custom',
    custom: {
      pre: hooks?.pre.join('\n') ?? '',
      waitFor: hooks?.waitFor ?? '',
      post: hooks?.post.join('\n') ?? '',
      timeoutSeconds: hooks?.timeoutSeconds ?? 60,
    },
    limits: { ...view.limits },
  };
}

/** Lines as typed; blank ones (an empty last line) are not commands. */
const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

export function customHooks(form: HooksForm): BackupHooks {
  return {
    pre: linesOf(form.pre),
    ...(form.waitFor.trim() !== '' ? { waitFor: form.waitFor } : {}),
    post: linesOf(form.post),
    timeoutSeconds: form.timeoutSeconds,
  };
}

export type HooksField = keyof HooksForm;

/** The fields the daemon would refuse (the same schema it parses with), none when valid. */
export function hooksErrors(form: HooksForm): Set<HooksField> {
  const parsed = backupHooksSchema.safeParse(customHooks(form));
  const fields = new Set<HooksField>();
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    if (field === 'pre' || field === 'post' || field === 'waitFor' || field === 'timeoutSeconds')
      fields.add(field);
  }
  return fields;
}

/** `hooksEditable` false: the hooks go back exactly as stored (the daemon refuses a change without console rights). */
export function policyBody(
  form: PolicyForm,
  view: BackupPolicyView,
  hooksEditable: boolean,
): BackupPolicyInput {
  const hooks = !hooksEditable
    ? view.hooks
    : form.hooks === 'template'
      ? null
      : form.hooks === 'none'
        ? false
        : customHooks(form.custom);
  return { retention: form.retention, schedule: form.schedule, hooks, limits: form.limits };
}
