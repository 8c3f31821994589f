import "server-only";
import { AppError } from "@/lib/http/errors";

/**
 * A file the import refuses, with a message that names the file and the row: 422, nothing stored.
 * `tooLarge` makes it a 413 (a size or count limit).
 */
export class ImportRefusal extends AppError {
  constructor(message: string, opts: { tooLarge?: boolean } = {}) {
    super(opts.tooLarge ? "payload_too_large" : "unprocessable_entity", message);
    this.name = "ImportRefusal";
  }
}
