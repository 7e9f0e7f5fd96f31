/**
 * The parts of @wordpress/block-editor and @wordpress/block-library the test page uses: neither
 * package ships type declarations (checked in block-editor 18.0.0 and block-library 11.1.0).
 */
declare module '@wordpress/block-editor' {
  import type { ComponentType, ReactNode } from 'react';
  export const BlockEditorProvider: ComponentType<{
    value: unknown[];
    onInput: (blocks: never[]) => void;
    onChange: (blocks: never[]) => void;
    settings?: Record<string, unknown>;
    useSubRegistry?: boolean;
    children?: ReactNode;
  }>;
  export const BlockList: ComponentType;
  export const BlockTools: ComponentType<{ children?: ReactNode }>;
  export const WritingFlow: ComponentType<{ children?: ReactNode }>;
  export const ObserveTyping: ComponentType<{ children?: ReactNode }>;
  export const BlockEditorKeyboardShortcuts: ComponentType & { Register: ComponentType };
}

declare module '@wordpress/block-library' {
  export function registerCoreBlocks(): void;
}
