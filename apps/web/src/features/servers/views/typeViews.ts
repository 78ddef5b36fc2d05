import type { ServerView } from '@hearth/contract/servers';
import type { ComponentType } from 'react';
import { GenericView } from './GenericView';
import { MinecraftView } from './MinecraftView';

export interface TypeViewProps {
  server: ServerView;
}

/** Views by server type; a type matches its own name or a `name-…` variant (minecraft-java → minecraft). */
const views: Record<string, ComponentType<TypeViewProps>> = {
  minecraft: MinecraftView,
};

export function typeViewFor(type: string): ComponentType<TypeViewProps> {
  const key = type.toLowerCase();
  const match = Object.keys(views).find((name) => key === name || key.startsWith(`${name}-`));
  return match ? (views[match] ?? GenericView) : GenericView;
}
