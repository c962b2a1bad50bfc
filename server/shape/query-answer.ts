/**
 * The reasoning pool's answer shaper (engine/reason/tasks.ts AnswerShaper): the HTTP
 * body of a query result, made where the query ran. Loaded by URL in every reasoning
 * worker, so it imports nothing of the HTTP layer beyond the shaping itself.
 */
import { parseQuery } from '../../engine/query/index.ts';
import type { AnswerShaper } from '../../engine/reason/tasks.ts';
import { patternRelationshipTypes, queryResultBody } from './query-result.ts';

export const shapeAnswer: AnswerShaper = (result, graph, text, request) =>
  JSON.stringify(
    queryResultBody(
      result,
      request.includeProvenance,
      {
        graph,
        types: patternRelationshipTypes(parseQuery(text)),
        ...(request.asOf ? { asOf: request.asOf } : {}),
      },
      request.statuses,
    ),
  );

/** Its URL, for ReasoningOptions.answerShaper. */
export const ANSWER_SHAPER_URL = import.meta.url;
