import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';

/**
 * Declares a multipart/form-data request body in the OpenAPI document (file parts as binary strings,
 * text fields as strings), so generated clients and Swagger UI's "Try it out" can upload.
 */
export function MultipartBody(input: {
  files: Record<string, string>;
  /**
   * A text field's description, or its description and an example (what "Try it out" fills in), and
   * the values it takes when they are few.
   */
  fields?: Record<string, string | { description: string; example: string; enum?: string[] }>;
  required: readonly string[];
}): MethodDecorator {
  const properties: Record<
    string,
    { type: 'string'; format?: 'binary'; description: string; example?: string; enum?: string[] }
  > = {};
  for (const [name, description] of Object.entries(input.files)) {
    properties[name] = { type: 'string', format: 'binary', description };
  }
  for (const [name, field] of Object.entries(input.fields ?? {})) {
    properties[name] =
      typeof field === 'string' ? { type: 'string', description: field } : { type: 'string', ...field };
  }
  return applyDecorators(
    ApiConsumes('multipart/form-data'),
    ApiBody({ schema: { type: 'object', required: [...input.required], properties } }),
  );
}
