/**
 * Request and response types of the API, derived from the very TypeBox schemas
 * the server validates and serialises with (server/schemas.ts). Type-only imports:
 * nothing of the server reaches the client's JavaScript.
 */
import type { Static } from '@sinclair/typebox';
import type * as S from '../../../server/schemas.ts';

export type Problem = Static<typeof S.ProblemSchema>;
export type Health = Static<typeof S.HealthSchema>;

export type ApiKeyCreate = Static<typeof S.ApiKeyCreateSchema>;
export type ApiKey = Static<typeof S.ApiKeySchema>;
export type ApiKeyList = Static<typeof S.ApiKeyListSchema>;
export type NewApiKey = Static<typeof S.NewApiKeySchema>;

export type WorkspaceCreate = Static<typeof S.WorkspaceCreate>;
export type Workspace = Static<typeof S.WorkspaceSchema>;
export type WorkspaceList = Static<typeof S.WorkspaceListSchema>;
export type PageQuery = Static<typeof S.PageQuery>;

export type GraphList = Static<typeof S.GraphListSchema>;
export type GraphDetail = Static<typeof S.GraphDetailSchema>;
export type GraphImport = Static<typeof S.GraphImportSchema>;
export type ImportSummary = Static<typeof S.ImportSummarySchema>;

export type Provenance = Static<typeof S.ProvenanceSchema>;
export type ExtractRequest = Static<typeof S.ExtractRequestSchema>;
export type Extraction = Static<typeof S.ExtractionSchema>;
export type IngestRequest = Static<typeof S.IngestRequestSchema>;
export type Ingestion = Static<typeof S.IngestionSchema>;

export type GraphQueryRequest = Static<typeof S.GraphQueryRequestSchema>;
export type PatternQueryRequest = Static<typeof S.PatternQueryRequestSchema>;
export type GraphQueryResult = Static<typeof S.GraphQueryResultSchema>;

export type AssessRequest = Static<typeof S.AssessRequestSchema>;
export type Assessment = Static<typeof S.AssessmentSchema>;
export type AnalyzeRequest = Static<typeof S.AnalyzeRequestSchema>;
export type Analysis = Static<typeof S.AnalysisSchema>;
export type FrameworkList = Static<typeof S.FrameworkListSchema>;
export type FrameworkDetail = Static<typeof S.FrameworkDetailSchema>;
