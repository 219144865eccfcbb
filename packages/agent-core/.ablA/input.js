import { AgentCoreError } from './errors.js';
function toBase64(data) {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
/** Binary data and URLs become strings so the history stays plain JSON (sessions round-trip byte for byte). */
function jsonSafeData(data, where) {
    if (typeof data === 'string')
        return data;
    if (data instanceof URL)
        return data.href;
    if (data instanceof Uint8Array || data instanceof ArrayBuffer)
        return toBase64(data);
    throw new AgentCoreError('invalid-options', `${where}: expected a string, URL, Uint8Array or ArrayBuffer`);
}
/** Validates user input and turns it into the user message of a turn. */
export function toUserMessage(input) {
    if (typeof input === 'string')
        return { role: 'user', content: input };
    if (!Array.isArray(input) || input.length === 0) {
        throw new AgentCoreError('invalid-options', 'input must be a string or a non-empty array of content parts');
    }
    const parts = input.map((part, i) => {
        const where = `input[${i}]`;
        if (typeof part !== 'object' || part === null) {
            throw new AgentCoreError('invalid-options', `${where}: expected a content part object`);
        }
        const p = part;
        switch (p.type) {
            case 'text':
                if (typeof p.text !== 'string')
                    throw new AgentCoreError('invalid-options', `${where}.text must be a string`);
                return { type: 'text', text: p.text };
            case 'image':
                return {
                    type: 'image',
                    image: jsonSafeData(p.image, `${where}.image`),
                    ...(typeof p.mediaType === 'string' ? { mediaType: p.mediaType } : {}),
                };
            case 'file':
                if (typeof p.mediaType !== 'string') {
                    throw new AgentCoreError('invalid-options', `${where}.mediaType must be a string`);
                }
                return {
                    type: 'file',
                    data: jsonSafeData(p.data, `${where}.data`),
                    mediaType: p.mediaType,
                    ...(typeof p.filename === 'string' ? { filename: p.filename } : {}),
                };
            default:
                throw new AgentCoreError('invalid-options', `${where}: unknown part type ${JSON.stringify(p.type)}`);
        }
    });
    return { role: 'user', content: parts };
}
//# sourceMappingURL=input.js.map