import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import type { GalleryImage } from '../../../../contract/gallery';
import { theme } from '../../../theme/theme';
import { ResponsiveImage } from '../../ui/ResponsiveImage';
import { GalleryFullScreen } from './GalleryFullScreen';
import { CornerButton, Slide, StepControls, Track } from './SnapTrack';
import { useSnapTrack } from './useSnapTrack';

// The competition page's prize gallery (docs/product.md#prize-galleries). Hand-written on CSS
// scroll snap rather than a carousel library: the browser does the swipe (with its own momentum,
// before the scripts load, at no bundle cost), and what is left (buttons, keys, the counter, the
// full-screen view) is a few lines.

const PLACEHOLDER = '/images/placeholder.svg';

/** A fixed 4:3 box, so the page never shifts as pictures load or change. */
const Viewport = styled.div`
  position: relative;
  width: 100%;
  aspect-ratio: 4 / 3;
  overflow: hidden;
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.card};
  background: ${({ theme }) => theme.colors.muted};
`;

const Picture = styled(ResponsiveImage)`
  display: block;
  width: 100%;
  height: 100%;
  object-fit: cover;
`;

/** Four corners pointing out: "full screen". */
const ExpandIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path
      d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

/**
 * The pictures of a competition, first first: swipe, Previous / Next, the arrow keys, and a
 * full-screen view. Without pictures, the placeholder. The first picture is the page's LCP image.
 */
export function PrizeGallery({ images, title }: { images: GalleryImage[]; title: string }) {
  const pictures = images.length ? images : [{ url: PLACEHOLDER, alt: title }];
  const many = pictures.length > 1;
  const { index, goTo, onKeyDown, trackProps } = useSnapTrack(pictures.length);
  const [fullScreenAt, setFullScreenAt] = useState<number | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  // Closing the full-screen view gives the focus back to the button that opened it.
  useEffect(() => {
    if (fullScreenAt !== null || !returnFocus.current) return;
    returnFocus.current = false;
    opener.current?.focus();
  }, [fullScreenAt]);

  const closeFullScreen = (at: number) => {
    returnFocus.current = true;
    setFullScreenAt(null);
    goTo(at, false);
  };

  return (
    <>
      <section
        aria-roledescription="carousel"
        aria-label={`Pictures of ${title}`}
        onKeyDown={onKeyDown}
        data-testid="prize-gallery"
      >
        <Viewport>
          <Track {...trackProps} tabIndex={many ? 0 : undefined} role="group" aria-label="Pictures">
            {pictures.map((image, i) => (
              <Slide
                // biome-ignore lint/suspicious/noArrayIndexKey: a picture's place is its identity (one URL may be shown twice)
                key={i}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${pictures.length}`}
              >
                <Picture
                  src={image.url}
                  alt={image.alt}
                  sizes={`(min-width: ${theme.breakpoints.lg}px) 600px, 100vw`}
                  width={800}
                  height={600}
                  // The page's LCP element: fetched ahead of the scripts and other images.
                  priority={i === 0}
                />
              </Slide>
            ))}
          </Track>
          {many && (
            <StepControls index={index} count={pictures.length} goTo={goTo} counterTestId="gallery-counter" />
          )}
          {images.length > 0 && (
            <CornerButton
              ref={opener}
              type="button"
              aria-label="View pictures full screen"
              aria-haspopup="dialog"
              onClick={() => setFullScreenAt(index)}
            >
              <ExpandIcon />
            </CornerButton>
          )}
        </Viewport>
      </section>
      {fullScreenAt !== null && (
        <GalleryFullScreen images={pictures} start={fullScreenAt} title={title} onClose={closeFullScreen} />
      )}
    </>
  );
}
