import { parseGafLine } from './gaf-line';
import type { GafHeader, GafLine } from './gaf-record';

const VERSION_KEY = 'gaf-version';

/**
 * Streaming GAF reader: feed it lines in file order, it numbers them (from 1) and collects the header.
 * It keeps no records, so a file of any size runs in constant memory.
 */
export class GafReader {
  private lineNumber = 0;
  private readonly state: GafHeader = { version: null, properties: {} };

  get header(): GafHeader {
    return { version: this.state.version, properties: { ...this.state.properties } };
  }

  push(line: string): GafLine {
    this.lineNumber += 1;
    const parsed = parseGafLine(line, this.lineNumber);
    if (parsed.kind === 'header') this.remember(parsed.key, parsed.value);
    return parsed;
  }

  private remember(key: string, value: string): void {
    // Merged files repeat header keys (one block per source); the first describes the file itself.
    if (Object.prototype.hasOwnProperty.call(this.state.properties, key)) return;
    this.state.properties[key] = value;
    if (key.toLowerCase() === VERSION_KEY && this.state.version === null) this.state.version = value;
  }
}
