/**
 * The policy form's values and the body it sends: the whole policy, with the parts the caller may not change
 * sent back as they are (the daemon compares them; docs/backups.md § Retention, limits, schedules).
 */
import type { BackupPolicyInput, BackupPolicyView } from '@hearth/contract/backups';

export type HooksChoice = 'template' | 'none' | 'custom';

export interface PolicyForm {
  retention: BackupPolicyView['retention'];
  schedule: string;
  hooks: HooksChoice;
  limits: BackupPolicyView['limits'];
}

export function policyForm(view: BackupPolicyView): PolicyForm {
  return {
    retention: { ...view.retention },
    schedule: view.schedule ?? '',
    hooks: view.hooks === null ? 'template' : view.hooks === false ? 'none' : 'custom',
    limits: { ...view.limits },
  };
}

export function policyBody(form: PolicyForm, view: BackupPolicyView): BackupPolicyInput {
  const hooks = form.hooks === 'template' ? null : form.hooks === 'none' ? false : view.hooks;
  return { retention: form.retention, schedule: form.schedule, hooks, limits: form.limits };
}
