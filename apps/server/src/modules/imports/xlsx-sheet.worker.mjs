// Parses one uploaded workbook off the main thread (see xlsx-sheet.mjs) and exits.
import { parentPort, workerData } from 'node:worker_threads';
import { firstSheetTexts } from './xlsx-sheet.mjs';

parentPort.postMessage(await firstSheetTexts(workerData.buffer));
