<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: one grid page.
  $page is the @id of a <page> element; $root is '' (grid pages live at the output root).
  The tiles are the items of that page's collection whose @page is the page's @number.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="page" mode="body-class">grid-page</xsl:template>

  <!-- The tiles' sizes attribute, by the collection's layout. -->
  <xsl:variable name="tile-sizes">
    <xsl:choose>
      <xsl:when test="$current/../@layout = 'square'"><xsl:value-of select="$tile-sizes-square"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$tile-sizes-natural"/></xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- The first tile's picture is asked for from the head, before the rest of a long page is read: it is the
       likely largest paint, and reading the page takes a slow phone a while. -->
  <xsl:template match="page" mode="preload">
    <xsl:apply-templates select="(../item[@page = current()/@number])[1]" mode="tile">
      <xsl:with-param name="preload" select="true()"/>
    </xsl:apply-templates>
  </xsl:template>

  <!-- The tag a tile is shown for (tag.xsl sets it to the tag's name): the tile shows the entry with that tag. -->
  <xsl:variable name="shown-tag" select="''"/>

  <!-- A grid page inside a hierarchy (an album): the toolbar with the breadcrumb. -->
  <xsl:template match="page[../parent::collection]" mode="bar">
    <xsl:call-template name="toolbar"/>
  </xsl:template>

  <!-- "page 3 of 7"; on a page of a newest-first collection that holds no count (all but its newest), "page 3". -->
  <xsl:template name="page-of">
    <xsl:text>page </xsl:text>
    <xsl:value-of select="@number"/>
    <xsl:if test="../@page-count">
      <xsl:text> of </xsl:text>
      <xsl:value-of select="../@page-count"/>
    </xsl:if>
  </xsl:template>

  <xsl:template match="page" mode="title">
    <xsl:call-template name="collection-title"/>
    <xsl:if test="count(../page) &gt; 1">
      <xsl:text> — </xsl:text>
      <xsl:call-template name="page-of"/>
    </xsl:if>
  </xsl:template>

  <xsl:template match="page" mode="main">
    <xsl:variable name="items" select="../item[@page = current()/@number]"/>
    <div class="intro">
      <h1 dir="auto"><xsl:call-template name="collection-title"/></h1>
      <p class="count">
        <xsl:choose>
          <xsl:when test="../@item-count">
            <xsl:value-of select="../@item-count"/>
            <xsl:choose>
              <xsl:when test="../@item-count = 1"> image</xsl:when>
              <xsl:otherwise> images</xsl:otherwise>
            </xsl:choose>
            <xsl:if test="../@page-count &gt; 1">
              <xsl:text> · </xsl:text>
              <xsl:call-template name="page-of"/>
            </xsl:if>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>Page </xsl:text>
            <xsl:value-of select="@number"/>
          </xsl:otherwise>
        </xsl:choose>
      </p>
    </div>
    <xsl:if test="@number = 1 and ../collection">
      <nav class="albums" aria-label="Albums">
        <ul>
          <xsl:for-each select="../collection">
            <li>
              <a href="{concat($root, page[1]/@href)}"><xsl:call-template name="collection-title"/></a>
              <xsl:text> </xsl:text>
              <span class="count"><xsl:value-of select="@item-count"/></span>
            </li>
          </xsl:for-each>
        </ul>
      </nav>
    </xsl:if>
    <xsl:choose>
      <xsl:when test="$items">
        <ol class="grid" start="{$items[1]/@position}">
          <xsl:if test="../@order = 'newest-first'">
            <xsl:attribute name="reversed">reversed</xsl:attribute>
          </xsl:if>
          <!-- the preview pages' sizes, with which vitrine.js starts a photo's download before its page opens -->
          <xsl:if test="not($current/../@kind = 'album')">
            <xsl:attribute name="data-preview-sizes"><xsl:value-of select="$full-sizes"/></xsl:attribute>
          </xsl:if>
          <xsl:choose>
            <xsl:when test="$current/../@kind = 'album'">
              <xsl:attribute name="class">grid grid-square grid-album</xsl:attribute>
            </xsl:when>
            <xsl:when test="$current/../@layout = 'square'">
              <xsl:attribute name="class">grid grid-square</xsl:attribute>
            </xsl:when>
          </xsl:choose>
          <xsl:apply-templates select="$items" mode="tile"/>
        </ol>
      </xsl:when>
      <xsl:otherwise>
        <p class="empty">No images.</p>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="pager">
      <xsl:with-param name="pages" select="../page"/>
      <xsl:with-param name="n" select="number(@number)"/>
      <xsl:with-param name="newest-first" select="../@order = 'newest-first'"/>
    </xsl:call-template>
  </xsl:template>

  <!-- Context: a page or a collection. -->
  <xsl:template name="collection-title">
    <xsl:variable name="c" select="ancestor-or-self::collection[1]"/>
    <xsl:choose>
      <xsl:when test="normalize-space($c/@title) != ''"><xsl:value-of select="$c/@title"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="/gallery/title"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ============================================================ one tile -->

  <!-- Tiles of the first row on a phone load at once, the first with high priority (the likely LCP image);
       the others are lazy, so the first ones get the bandwidth. -->
  <xsl:template match="item" mode="tile">
    <!-- true(): the head's preload of the tile's picture instead of the tile -->
    <xsl:param name="preload" select="false()"/>
    <xsl:variable name="eager" select="position() &lt;= 2"/>
    <xsl:variable name="first" select="position() = 1"/>
    <!-- The entry shown: on a tag page the first one with the tag, else the first one with images, else the first. -->
    <xsl:variable name="tagged" select="entry[not(missing)][tag = $shown-tag]"/>
    <xsl:variable name="main" select="($tagged | (entry[not(missing)] | entry[not(../entry[not(missing)])])[not($tagged)])[1]"/>
    <xsl:choose>
      <xsl:when test="$preload">
        <xsl:for-each select="$main[not(missing)]">
          <xsl:call-template name="image">
            <xsl:with-param name="role" select="'tile'"/>
            <xsl:with-param name="first" select="true()"/>
            <xsl:with-param name="sizes" select="string($tile-sizes)"/>
            <xsl:with-param name="preload" select="true()"/>
          </xsl:call-template>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <li class="tile" id="{@id}">
          <figure>
            <a class="frame" href="{concat($root, $main/@href)}">
              <xsl:for-each select="$main">
                <xsl:choose>
                  <xsl:when test="missing">
                    <span class="ph">
                      <span class="ph-text">
                        <strong>No image</strong>
                        <span class="ph-why"><xsl:value-of select="missing"/></span>
                      </span>
                    </span>
                  </xsl:when>
                  <xsl:otherwise>
                    <xsl:call-template name="image">
                      <xsl:with-param name="role" select="'tile'"/>
                      <xsl:with-param name="eager" select="$eager"/>
                      <xsl:with-param name="first" select="$first"/>
                      <xsl:with-param name="sizes" select="string($tile-sizes)"/>
                    </xsl:call-template>
                  </xsl:otherwise>
                </xsl:choose>
              </xsl:for-each>
            </a>
            <xsl:if test="normalize-space($main/caption) != '' or $main/credit or $main/license or entry[count(. | $main) != 1] or @last-seen or parent::gallery">
              <figcaption>
                <xsl:for-each select="$main">
                  <xsl:if test="normalize-space(caption) != ''">
                    <span class="caption" dir="auto"><xsl:value-of select="normalize-space(caption)"/></span>
                  </xsl:if>
                  <xsl:call-template name="credit">
                    <xsl:with-param name="element" select="'span'"/>
                  </xsl:call-template>
                  <xsl:if test="not(credit or license)">
                    <xsl:call-template name="last-seen"/>
                  </xsl:if>
                </xsl:for-each>
                <!-- On a site's tag page, whose items come from several galleries: the gallery it is in. -->
                <xsl:for-each select="parent::gallery">
                  <span class="from">
                    <xsl:text>In </xsl:text>
                    <a class="gallery" href="{concat($root, @href)}" dir="auto"><xsl:value-of select="title"/></a>
                  </span>
                </xsl:for-each>
                <xsl:if test="entry[count(. | $main) != 1]">
                  <span class="variants">
                    <xsl:for-each select="entry[count(. | $main) != 1]">
                      <xsl:variable name="label">
                        <xsl:call-template name="label-of">
                          <xsl:with-param name="key" select="@variant"/>
                        </xsl:call-template>
                      </xsl:variable>
                      <xsl:choose>
                        <xsl:when test="missing">
                          <span class="novariant">
                            <xsl:text>no </xsl:text>
                            <xsl:value-of select="translate($label, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"/>
                            <xsl:text> match</xsl:text>
                          </span>
                        </xsl:when>
                        <xsl:otherwise>
                          <a class="variant" href="{concat($root, @href)}">
                            <xsl:value-of select="$label"/>
                            <span class="vh"> version of image <xsl:value-of select="../@position"/></span>
                          </a>
                        </xsl:otherwise>
                      </xsl:choose>
                    </xsl:for-each>
                  </span>
                </xsl:if>
              </figcaption>
            </xsl:if>
          </figure>
        </li>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A photo of an album: the picture, its title laid over the bottom of it. -->
  <xsl:template match="item[../@kind = 'album']" mode="tile">
    <xsl:param name="preload" select="false()"/>
    <xsl:variable name="main" select="entry[1]"/>
    <xsl:variable name="eager" select="position() &lt;= 2"/>
    <xsl:variable name="first" select="position() = 1"/>
    <xsl:choose>
      <xsl:when test="$preload">
        <xsl:for-each select="$main">
          <xsl:call-template name="image">
            <xsl:with-param name="role" select="'tile'"/>
            <xsl:with-param name="first" select="true()"/>
            <xsl:with-param name="sizes" select="$tile-sizes-album"/>
            <xsl:with-param name="preload" select="true()"/>
          </xsl:call-template>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <li class="tile" id="{@id}">
          <a class="frame" href="{concat($root, $main/@href)}">
            <xsl:for-each select="$main">
              <xsl:call-template name="image">
                <xsl:with-param name="role" select="'tile'"/>
                <xsl:with-param name="eager" select="$eager"/>
                <xsl:with-param name="first" select="$first"/>
                <xsl:with-param name="decorative" select="true()"/>
                <xsl:with-param name="sizes" select="$tile-sizes-album"/>
              </xsl:call-template>
              <span class="overlay"><span class="overlay-text"><xsl:call-template name="caption-or-position"/></span></span>
            </xsl:for-each>
          </a>
        </li>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
