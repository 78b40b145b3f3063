import { useLayoutEffect, useRef } from 'react';
import styled from 'styled-components';
import type { GalleryImage } from '../../../../contract/gallery';
import { ResponsiveImage } from '../../ui/ResponsiveImage';
import { CornerButton, Slide, StepControls, Track } from './SnapTrack';
import { useSnapTrack } from './useSnapTrack';

const Screen = styled.dialog`
  position: fixed;
  inset: 0;
  width: 100vw;
  height: 100dvh;
  max-width: none;
  max-height: none;
  margin: 0;
  padding: 0;
  border: 0;
  background: #050b14;
  overflow: hidden;
  &::backdrop { background: #050b14; }
`;

/** The whole picture, letterboxed: nothing is cropped here. */
const Picture = styled(ResponsiveImage)`
  display: block;
  width: 100%;
  height: 100%;
  object-fit: contain;
`;

/**
 * The gallery full screen, on the native modal <dialog> (the page behind is inert): the same
 * swipe, buttons and arrow keys as the page's gallery; Escape or Close shuts it, and `onClose`
 * gets the picture it was on, for the page's gallery to show.
 */
export function GalleryFullScreen({
  images,
  start,
  title,
  onClose,
}: {
  images: GalleryImage[];
  start: number;
  title: string;
  onClose: (index: number) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const { index, goTo, onKeyDown, trackProps } = useSnapTrack(images.length, start);
  const at = useRef(index);
  at.current = index;
  const many = images.length > 1;

  // Opened once, on the picture the page showed; the focus goes to Close.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only: `start` is where it opened
  useLayoutEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    goTo(start, false);
    closeButton.current?.focus();
    return () => {
      if (el?.open) el.close();
    };
  }, []);

  const close = () => onClose(at.current);
  return (
    <Screen
      ref={dialog}
      aria-label={`Pictures of ${title}, full screen`}
      data-testid="gallery-full-screen"
      // Escape: the browser's cancel is replaced by this close, so the page knows.
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') {
          e.preventDefault();
          close();
        } else onKeyDown(e);
      }}
    >
      <Track {...trackProps} tabIndex={many ? 0 : undefined} role="group" aria-label="Pictures">
        {images.map((image, i) => (
          <Slide
            // biome-ignore lint/suspicious/noArrayIndexKey: a picture's place is its identity (one URL may be shown twice)
            key={i}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${images.length}`}
          >
            <Picture src={image.url} alt={image.alt} sizes="100vw" priority={i === start} />
          </Slide>
        ))}
      </Track>
      {many && (
        <StepControls
          index={index}
          count={images.length}
          goTo={goTo}
          counterTestId="gallery-full-screen-counter"
        />
      )}
      <CornerButton ref={closeButton} type="button" aria-label="Close full screen" onClick={close}>
        ✕
      </CornerButton>
    </Screen>
  );
}
