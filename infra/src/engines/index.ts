// The store factory has its own entry (@rna/infra/stores), which loads no engine client unless configured.
export * from '../stores';
export * from '../message-log/kafka-message-log';
export * from '../event-store/eventstoredb-event-store';
export * from '../aid-index/elasticsearch-aid-index';
export * from '../documents/mongo-document-store';
export * from './wait-for-engines';
