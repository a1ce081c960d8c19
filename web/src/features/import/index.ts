// What the import feature offers other screens (Browse's export of chosen cards): an export's progress and its
// download link. Other features import it only from here (docs/architecture.md#web-layout).
export { ExportProgress } from './export-panel';
