import type { PanelConfig } from '../../config/schema';
import type { Db } from '../../db/connect';
import { dataDir } from '../../lib/paths';
import { createTemplateSources } from './templates.config';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';
import type { ActivityService } from '../activity/activity.service';

/** The templates module's composition: repository, sources from the `templates` config section, service. */
export function createTemplatesService(
  db: Db,
  config: PanelConfig,
  activity?: ActivityService,
): TemplatesService {
  const sources = createTemplateSources(config.templates, dataDir(config));
  return new TemplatesService(new TemplatesRepository(db), sources, Date.now, activity);
}
