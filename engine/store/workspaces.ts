import { randomBytes } from 'node:crypto';
import { NotFoundError } from '../errors.ts';
import { pageRequest, type Page, type StoreBackend, type Workspace } from './backend.ts';
import { writingGraph } from './graph-cache.ts';
import { newGraphMeta } from './graph-records.ts';
import type { SerialQueue } from './serial-queue.ts';
import { validateName } from './validate.ts';

/** A tenant's workspaces, each naming a graph of the tenant (several may share one). */
export class Workspaces {
  constructor(
    private readonly backend: StoreBackend,
    /** The store's graph locks: a workspace creating its graph takes the graph's. */
    private readonly locks: SerialQueue,
  ) {}

  async createWorkspace(tenant: string, input: Omit<Workspace, 'id' | 'created_at' | 'graph_id'> & { graph_id?: string }): Promise<Workspace> {
    const id = 'ws_' + randomBytes(8).toString('hex');
    const graphId = input.graph_id ?? id;
    validateName('graph_id', graphId);
    const now = new Date().toISOString();
    const workspace: Workspace = { id, name: input.name, domain: input.domain, scale: input.scale, tier: input.tier, graph_id: graphId, created_at: now };
    await writingGraph(this.locks, this.backend, tenant, graphId, async () => {
      const newGraph = (await this.backend.getGraphMeta(tenant, graphId)) ? undefined : newGraphMeta(graphId, now);
      await this.backend.putWorkspace(tenant, workspace, newGraph);
    });
    return workspace;
  }

  async getWorkspace(tenant: string, id: string): Promise<Workspace> {
    const workspace = await this.backend.getWorkspace(tenant, id);
    if (!workspace) throw new NotFoundError('workspace', id);
    return workspace;
  }

  async listWorkspaces(tenant: string, pageSize?: number, pageToken?: string): Promise<Page<Workspace>> {
    return this.backend.listWorkspaces(tenant, pageRequest(pageSize, pageToken));
  }

  /** The tenant's workspaces that name `graphId` (several may share a graph; none is fine). */
  workspacesOfGraph(tenant: string, graphId: string): Promise<Workspace[]> {
    return this.backend.workspacesOfGraph(tenant, graphId);
  }

  /** Deletes the workspace record; its graph stays (a graph is the tenant's, and may be shared). */
  async deleteWorkspace(tenant: string, id: string): Promise<void> {
    await this.backend.deleteWorkspace(tenant, await this.getWorkspace(tenant, id));
  }
}
