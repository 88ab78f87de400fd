/**
 * Worker-thread side of parseAidStream: receives the file's raw bytes, parses them with the
 * AidExtractor and posts records back in batches, so that parsing (the costliest step of an
 * import) runs on its own core while the main thread publishes and projects.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AidExtractor, RegisterFileFormatError } from './aid-extractor';
import {
  AidBatchEncoder,
  type FromParseWorker,
  type ParseWorkerData,
  type ToParseWorker,
} from './aid-parse-protocol';

function post(message: FromParseWorker): void {
  // an encoded batch's buffer is handed over, not copied
  const transfer = message.type === 'encoded' ? [message.batch.messages.bytes.buffer as ArrayBuffer] : [];
  parentPort?.postMessage(message, transfer);
}

if (parentPort) {
  const { sourceFile, importId, now, batchSize, encoded } = workerData as ParseWorkerData;
  const extractor = new AidExtractor(sourceFile, importId, now);
  let failed = false;
  const encoder = encoded ? new AidBatchEncoder(batchSize) : null;
  const postBatches = (all: boolean) => {
    if (encoder) {
      // Every record is encoded as soon as it is parsed (see AidBatchEncoder), not when a batch is full.
      for (const record of extractor.take(Infinity)) {
        const batch = encoder.add(record);
        if (batch) post({ type: 'encoded', batch });
      }
      const last = all ? encoder.flush() : null;
      if (last) post({ type: 'encoded', batch: last });
      return;
    }
    while (extractor.pendingCount >= batchSize || (all && extractor.pendingCount > 0)) {
      post({ type: 'batch', records: extractor.take(batchSize) });
    }
  };
  parentPort.on('message', (message: ToParseWorker) => {
    if (failed) return;
    try {
      if (message.type === 'chunk') {
        extractor.write(message.bytes);
        postBatches(false);
        post({ type: 'ack', bytes: message.bytes.length });
      } else {
        const report = extractor.end();
        postBatches(true);
        post({ type: 'done', report });
      }
    } catch (error) {
      failed = true;
      const line = error instanceof RegisterFileFormatError ? error.line : null;
      const formatError = error instanceof RegisterFileFormatError;
      post({
        type: 'error',
        message: error instanceof Error ? error.message : String(error),
        line,
        formatError,
      });
    }
  });
}
