/** The thread that reads uploaded and pasted lists (see list-reader.ts). */
import { serveTasks } from '@rna/infra/embedded';
import { readCodeList } from './file-reading';

serveTasks(readCodeList);
