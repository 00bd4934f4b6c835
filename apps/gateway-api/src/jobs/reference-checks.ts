import { DomainError, notFound, OperationSpec, payloadReferences } from '@svc/contracts';
import { canRead, Viewer } from '@svc/domain';
import { ReferenceCheckRepository } from '@svc/persistence';

/**
 * Before a job is queued: every row its payload names exists and is readable by the caller (404
 * otherwise, as a read of that row would answer), and rows that must agree do (422): the two
 * annotation sets of a temporal holdout share one ontology snapshot. The workers check again when
 * the job runs.
 */
export async function checkPayloadReferences(input: {
  spec: OperationSpec;
  payload: Record<string, unknown>;
  viewer: Viewer;
  repository: ReferenceCheckRepository;
}): Promise<void> {
  for (const ref of payloadReferences(input.payload)) {
    const row = await input.repository.find(ref.table, ref.id);
    const readable =
      row !== null &&
      (row.owner_user_id === undefined ||
        canRead(input.viewer, { owner_user_id: row.owner_user_id, visibility: row.visibility ?? 'owner' }));
    if (!readable) throw notFound(ref.label);
  }
  if (input.spec.name === 'generate_evaluation_set') {
    const oldId = String(input.payload['old_annotation_set_id']);
    const newId = String(input.payload['new_annotation_set_id']);
    const snapshots = await input.repository.snapshotsOfAnnotationSets([oldId, newId]);
    if (snapshots.get(oldId) !== snapshots.get(newId)) {
      throw new DomainError(
        'validation_error',
        'the old and new annotation sets were loaded against different ontology snapshots; load both against one',
        {},
        [
          {
            path: 'new_annotation_set_id',
            message: 'must share the ontology snapshot of old_annotation_set_id',
          },
        ],
      );
    }
  }
}
