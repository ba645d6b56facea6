<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: the shared layout, imported by grid.xsl and preview.xsl.

  Parameters (set by Vitrine for every page, see docs/model.md):
    page  the @id of the element to render: a <page> (grid.xsl), an <entry> (preview.xsl)
          or the <site> of a home page (home.xsl)
    root  the relative prefix from the rendered page to the output root: '', '../', '../../'

  The page skeleton is the template for "/" below. It renders the element named by
  $page ($current) through these modes, which grid.xsl and preview.xsl implement:
    title       text of <title>
    body-class  value of body/@class
    head        extra elements at the end of <head> (optional)
    bar         content between the site header and <main> (optional)
    main        content of <main>

  Rules for every template of a Vitrine theme: all links are concat($root, @href);
  text is only ever output with xsl:value-of (escaped), never with output escaping disabled.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:param name="page" select="''"/>
  <xsl:param name="root" select="''"/>

  <xsl:key name="by-id" match="*[@id]" use="@id"/>

  <!-- The element this page renders. -->
  <xsl:variable name="current" select="key('by-id', $page)"/>
  <xsl:variable name="source-label" select="/gallery/source/@label"/>
  <xsl:variable name="home-href" select="(/gallery/collection[1]/page[1]/@href | /gallery/random/@href)[1]"/>

  <!-- ============================================================ skeleton -->

  <xsl:template match="/">
    <xsl:if test="count($current) != 1">
      <xsl:message terminate="yes">vitrine: parameter page='<xsl:value-of select="$page"/>' names no element of the model</xsl:message>
    </xsl:if>
    <html lang="{*/@lang}">
      <head>
        <!-- The one charset declaration: libxslt's html output method updates this
             element in place instead of inserting a second one. -->
        <meta http-equiv="Content-Type" content="text/html; charset=UTF-8"/>
        <!-- no favicon: an empty one keeps browsers from asking the server root for /favicon.ico -->
        <link rel="icon" href="data:,"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:apply-templates select="$current" mode="title"/></title>
        <meta name="color-scheme" content="light dark"/>
        <meta name="generator" content="Vitrine"/>
        <link rel="stylesheet" href="{concat($root, 'assets/vitrine.css')}"/>
        <xsl:apply-templates select="$current" mode="head"/>
        <script src="{concat($root, 'assets/vitrine.js')}" defer="defer"></script>
      </head>
      <body>
        <xsl:attribute name="class"><xsl:apply-templates select="$current" mode="body-class"/></xsl:attribute>
        <a class="skip" href="#main">Skip to content</a>
        <xsl:call-template name="site-header"/>
        <xsl:apply-templates select="$current" mode="bar"/>
        <main id="main">
          <xsl:apply-templates select="$current" mode="main"/>
        </main>
        <xsl:call-template name="site-footer"/>
      </body>
    </html>
  </xsl:template>

  <!-- Fallbacks: a stylesheet asked to render an element it has no template for fails
       loudly instead of printing the model's text. -->
  <xsl:template match="*" mode="main">
    <xsl:message terminate="yes">vitrine: this stylesheet cannot render &lt;<xsl:value-of select="name()"/>&gt; (parameter page='<xsl:value-of select="$page"/>')</xsl:message>
  </xsl:template>
  <xsl:template match="*" mode="title"><xsl:value-of select="/gallery/title"/></xsl:template>
  <xsl:template match="*" mode="body-class"/>
  <xsl:template match="*" mode="head"/>
  <xsl:template match="*" mode="bar"/>
  <xsl:template match="*" mode="toolbar-extra"/>

  <!-- ============================================================ header / footer -->

  <xsl:template name="site-header">
    <header class="site">
      <xsl:choose>
        <xsl:when test="/gallery/site">
          <a class="brand" href="{concat($root, /gallery/site/@href)}"><xsl:value-of select="/gallery/site/@title"/></a>
          <span class="sep" aria-hidden="true">›</span>
          <a class="brand sub" href="{concat($root, $home-href)}"><xsl:value-of select="/gallery/title"/></a>
        </xsl:when>
        <xsl:otherwise>
          <a class="brand" href="{concat($root, $home-href)}"><xsl:value-of select="/gallery/title"/></a>
        </xsl:otherwise>
      </xsl:choose>
      <p class="lede">
        <xsl:variable name="queries" select="/gallery/variants/variant[normalize-space(@query) != '']"/>
        <xsl:choose>
          <xsl:when test="$queries">
            <xsl:value-of select="$source-label"/>
            <xsl:text> results for </xsl:text>
            <xsl:for-each select="$queries">
              <xsl:if test="position() &gt; 1">
                <xsl:choose>
                  <xsl:when test="position() = last()"> and </xsl:when>
                  <xsl:otherwise>, </xsl:otherwise>
                </xsl:choose>
              </xsl:if>
              <q><xsl:value-of select="@query"/></q>
            </xsl:for-each>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>Images from </xsl:text>
            <xsl:value-of select="$source-label"/>
          </xsl:otherwise>
        </xsl:choose>
        <xsl:if test="/gallery/history">
          <xsl:text> · </xsl:text>
          <a class="changes" href="{concat($root, /gallery/history/@href)}">What’s new</a>
        </xsl:if>
        <xsl:if test="/gallery/archive">
          <xsl:text> · </xsl:text>
          <a class="archive" href="{concat($root, /gallery/archive/@href)}">
            <xsl:text>No longer in the results (</xsl:text>
            <xsl:value-of select="/gallery/archive/@item-count"/>
            <xsl:text>)</xsl:text>
          </a>
        </xsl:if>
      </p>
    </header>
    <xsl:call-template name="notices"/>
  </xsl:template>

  <xsl:template name="notices">
    <xsl:if test="/gallery/notice">
      <div class="notices">
        <xsl:for-each select="/gallery/notice">
          <p class="notice" data-kind="{@kind}">
            <strong>
              <xsl:choose>
                <xsl:when test="@kind = 'stale'">Saved copy: </xsl:when>
                <xsl:when test="@kind = 'warning'">Warning: </xsl:when>
                <xsl:otherwise>Note: </xsl:otherwise>
              </xsl:choose>
            </strong>
            <xsl:value-of select="."/>
          </p>
        </xsl:for-each>
      </div>
    </xsl:if>
  </xsl:template>

  <xsl:template name="site-footer">
    <footer class="site">
      <p>
        <xsl:text>Images from </xsl:text>
        <xsl:call-template name="external-link">
          <xsl:with-param name="href" select="/gallery/source/@home"/>
          <xsl:with-param name="text" select="$source-label"/>
        </xsl:call-template>
        <!-- Only where the page shows credits: JSONPlaceholder's photos, for one, have no author. -->
        <xsl:choose>
          <xsl:when test="//credit[not(@role = 'publication')]">
            <xsl:text>; each is credited to its author. Made with Vitrine.</xsl:text>
          </xsl:when>
          <xsl:when test="//credit">
            <xsl:text>; each is credited to the publication it appeared in. Made with Vitrine.</xsl:text>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>. Made with Vitrine.</xsl:text>
          </xsl:otherwise>
        </xsl:choose>
      </p>
    </footer>
  </xsl:template>

  <!-- ============================================================ toolbar (album hierarchies) -->

  <!--
    The toolbar of a page inside a hierarchy of collections: a back link to the level
    above and a breadcrumb from the top list to this page. Context: none ($current is
    a <page> of a nested collection, or an <entry>). A page of the top collection has
    no level above, so only the breadcrumb. The importing stylesheet may add controls
    after the breadcrumb in mode toolbar-extra.
  -->
  <xsl:template name="toolbar">
    <xsl:variable name="is-entry" select="boolean($current/self::entry)"/>
    <xsl:variable name="item" select="$current/parent::item"/>
    <xsl:variable name="trail" select="$current/ancestor::collection"/>
    <!-- the collection one level up: for a page, the parent of its collection; for an entry, its collection -->
    <xsl:variable name="up" select="$current/ancestor::collection[position() = 2 - number($is-entry)]"/>
    <nav class="toolbar" aria-label="Breadcrumb">
      <xsl:if test="$up">
        <a class="up" data-nav="up">
          <xsl:attribute name="href">
            <xsl:choose>
              <xsl:when test="$is-entry">
                <xsl:value-of select="concat($root, $up/page[@number = $item/@page]/@href, '#', $item/@id)"/>
              </xsl:when>
              <xsl:otherwise>
                <xsl:value-of select="concat($root, $up/page[1]/@href, '#', $current/../@id)"/>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:attribute>
          <span aria-hidden="true">←</span>
          <xsl:text>Back</xsl:text>
          <span class="vh"> to <xsl:call-template name="collection-name"><xsl:with-param name="c" select="$up"/></xsl:call-template></span>
        </a>
      </xsl:if>
      <ol class="crumbs">
        <xsl:for-each select="$trail">
          <li>
            <xsl:choose>
              <xsl:when test="not($is-entry) and position() = last()">
                <span aria-current="page"><xsl:call-template name="collection-name"/></span>
              </xsl:when>
              <xsl:when test="$is-entry and position() = last()">
                <a href="{concat($root, page[@number = $item/@page]/@href, '#', $item/@id)}"><xsl:call-template name="collection-name"/></a>
              </xsl:when>
              <xsl:otherwise>
                <a href="{concat($root, page[1]/@href)}"><xsl:call-template name="collection-name"/></a>
              </xsl:otherwise>
            </xsl:choose>
          </li>
        </xsl:for-each>
        <xsl:if test="$is-entry">
          <li>
            <span aria-current="page">
              <xsl:for-each select="$current"><xsl:call-template name="caption-or-position"/></xsl:for-each>
            </span>
          </li>
        </xsl:if>
      </ol>
      <xsl:apply-templates select="$current" mode="toolbar-extra"/>
    </nav>
  </xsl:template>

  <!-- A collection's title, or the gallery title when it is empty. -->
  <xsl:template name="collection-name">
    <xsl:param name="c" select="."/>
    <xsl:choose>
      <xsl:when test="normalize-space($c/@title) != ''"><xsl:value-of select="normalize-space($c/@title)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="/gallery/title"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ============================================================ shared pieces -->

  <!-- A link to an outside page, or plain text when the URL is absent or not http(s). -->
  <xsl:template name="external-link">
    <xsl:param name="href"/>
    <xsl:param name="text"/>
    <xsl:choose>
      <xsl:when test="starts-with($href, 'https://') or starts-with($href, 'http://')">
        <a href="{$href}" rel="noopener noreferrer"><xsl:value-of select="$text"/></a>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "Photo by NAME on Pixabay", or "Published by NAME" for a publication. Context: an entry. -->
  <xsl:template name="credit">
    <xsl:param name="element" select="'p'"/>
    <xsl:if test="credit">
      <xsl:element name="{$element}">
        <xsl:attribute name="class">credit</xsl:attribute>
        <xsl:choose>
          <xsl:when test="credit/@role = 'publication'">Published by </xsl:when>
          <xsl:otherwise>Photo by </xsl:otherwise>
        </xsl:choose>
        <xsl:call-template name="external-link">
          <xsl:with-param name="href" select="credit/@href"/>
          <xsl:with-param name="text" select="credit/@name"/>
        </xsl:call-template>
        <xsl:if test="not(credit/@role = 'publication')">
          <xsl:text> on </xsl:text>
          <xsl:value-of select="$source-label"/>
        </xsl:if>
        <xsl:if test="../@last-seen">
          <xsl:text> · </xsl:text>
          <xsl:call-template name="last-seen"/>
        </xsl:if>
      </xsl:element>
    </xsl:if>
  </xsl:template>

  <!-- "Last seen 23 September 2026, 14:13 UTC" on an item that left the results (keep = "all"), after its credit
       (the credit template adds it), or on its own when it has none. Context: an entry. -->
  <xsl:template name="last-seen">
    <xsl:param name="element" select="'span'"/>
    <xsl:if test="../@last-seen">
      <xsl:element name="{$element}">
        <xsl:attribute name="class">seen</xsl:attribute>
        <xsl:text>Last seen </xsl:text>
        <time datetime="{../@last-seen}"><xsl:value-of select="../@last-seen-label"/></time>
      </xsl:element>
    </xsl:if>
  </xsl:template>

  <!-- "Image 3 of 20". Context: an entry. -->
  <xsl:template name="position-text">
    <xsl:text>Image </xsl:text>
    <xsl:value-of select="../@position"/>
    <xsl:text> of </xsl:text>
    <xsl:value-of select="../../@item-count"/>
  </xsl:template>

  <!-- The caption, or "Image 3 of 20" when it is empty. Context: an entry. -->
  <xsl:template name="caption-or-position">
    <xsl:choose>
      <xsl:when test="normalize-space(caption) != ''"><xsl:value-of select="normalize-space(caption)"/></xsl:when>
      <xsl:otherwise><xsl:call-template name="position-text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The label of the variant whose key is $key. -->
  <xsl:template name="label-of">
    <xsl:param name="key"/>
    <xsl:variable name="v" select="/gallery/variants/variant[@key = $key]"/>
    <xsl:choose>
      <xsl:when test="$v"><xsl:value-of select="$v/@label"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$key"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!--
    An <img> for one rendition of an entry, or a placeholder box when the rendition
    is unavailable. Context: an entry.
      role   'tile' or 'full' (falls back to the other role when absent)
      eager  true() for images in the first screenful: no loading="lazy" nor
             decoding="async", so that they paint with the page
  -->
  <xsl:template name="image">
    <xsl:param name="role" select="'tile'"/>
    <xsl:param name="eager" select="false()"/>
    <!-- the sizes attribute for a srcset of both renditions; empty: no srcset -->
    <xsl:param name="sizes" select="''"/>
    <!-- true() when text next to the image already says what it shows: alt="" -->
    <xsl:param name="decorative" select="false()"/>
    <xsl:variable name="small" select="image[@role = 'tile'][@src]"/>
    <xsl:variable name="large" select="image[@role = 'full'][@src]"/>
    <xsl:variable name="img" select="(image[@role = $role] | image[not(../image[@role = $role])])[1]"/>
    <xsl:variable name="alt">
      <xsl:if test="not($decorative)"><xsl:call-template name="caption-or-position"/></xsl:if>
    </xsl:variable>
    <xsl:variable name="w" select="floor(number($img/@width))"/>
    <xsl:variable name="h" select="floor(number($img/@height))"/>
    <xsl:variable name="sized" select="$w &gt; 0 and $h &gt; 0"/>
    <xsl:choose>
      <xsl:when test="$img/@src">
        <img src="{concat($root, $img/@src)}" alt="{$alt}">
          <xsl:if test="$sizes != '' and $small and $large and $small/@src != $large/@src
                        and floor(number($small/@width)) &gt; 0
                        and floor(number($large/@width)) &gt; floor(number($small/@width))">
            <xsl:attribute name="srcset">
              <xsl:value-of select="concat($root, $small/@src, ' ', floor(number($small/@width)), 'w, ',
                                           $root, $large/@src, ' ', floor(number($large/@width)), 'w')"/>
            </xsl:attribute>
            <xsl:attribute name="sizes"><xsl:value-of select="$sizes"/></xsl:attribute>
          </xsl:if>
          <xsl:if test="$sized">
            <xsl:attribute name="width"><xsl:value-of select="$w"/></xsl:attribute>
            <xsl:attribute name="height"><xsl:value-of select="$h"/></xsl:attribute>
          </xsl:if>
          <xsl:if test="not($eager)">
            <xsl:attribute name="loading">lazy</xsl:attribute>
            <xsl:attribute name="decoding">async</xsl:attribute>
          </xsl:if>
        </img>
      </xsl:when>
      <xsl:otherwise>
        <span class="ph">
          <xsl:if test="$sized">
            <xsl:attribute name="style">--w:<xsl:value-of select="$w"/>;--h:<xsl:value-of select="$h"/></xsl:attribute>
          </xsl:if>
          <span class="ph-text">
            <strong>Image unavailable</strong>
            <xsl:if test="normalize-space($img/unavailable) != ''">
              <span class="ph-why"><xsl:value-of select="normalize-space($img/unavailable)"/></span>
            </xsl:if>
            <xsl:if test="$alt != ''"><span class="vh">: <xsl:value-of select="$alt"/></span></xsl:if>
          </span>
        </span>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
