import type { DynamicModule } from '@nestjs/common';
import type { AppRole } from '../config/config.schema';

/**
 * A module's `register(role)` that answers the same object for the same role. Nest tells dynamic modules
 * apart by reference, so a module imported by the app and by another feature (the account's deletion
 * and data file read through several) would otherwise be two modules, its controllers registered twice
 * and its providers made twice.
 */
export function oncePerRole(build: (role: AppRole) => DynamicModule): (role: AppRole) => DynamicModule {
  const registered = new Map<AppRole, DynamicModule>();
  return (role) => {
    let module = registered.get(role);
    if (!module) registered.set(role, (module = build(role)));
    return module;
  };
}
