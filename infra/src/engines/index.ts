export * from '../message-log/kafka-message-log';
