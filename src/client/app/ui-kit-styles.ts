// Mantine's styles per component (its "CSS files list" guide) instead of the whole styles.css:
// here the global styles and the components of the first screen of any address (the join
// page, the header, the route fallbacks); `ui-kit-screen-styles.ts` holds the rest and loads
// with the other screens. Each list keeps the order of Mantine's styles.css, so a component
// comes after the components it is built on. A test checks that every component the client
// uses, and every component those are built on, is listed (decision 071).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import './font.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Title.css';
